import { Schema, Struct } from "effect"
import { TeamId, UserId } from "../shared/model.ts"
import { Role } from "./Team.ts"

/** A member of a team: the user, their role and when they joined. */
export const TeamMember = Schema.Struct({
  userId: UserId,
  email: Schema.String,
  fullName: Schema.NullOr(Schema.String),
  role: Role,
  joinedAt: Schema.String
})
export type TeamMember = typeof TeamMember.Type

/** A team member as other members see them. */
export const TeamMemberView = Schema.Struct({
  id: Schema.String,
  object: Schema.Literal("team_member"),
  ...Struct.omit(TeamMember.fields, ["userId"])
})
export type TeamMemberView = typeof TeamMemberView.Type

/** The view of a team member. */
export const teamMemberView = (member: TeamMember): TeamMemberView => ({
  id: member.userId,
  object: "team_member",
  email: member.email,
  fullName: member.fullName,
  role: member.role,
  joinedAt: member.joinedAt
})

/**
 * An invitation to join a team by e-mail: the raw token is mailed to the invitee once and stored only as its hash;
 * accepting it is possible once, before `expiresAt`.
 */
export const TeamInvite = Schema.Struct({
  id: Schema.String,
  teamId: TeamId,
  email: Schema.String,
  role: Role,
  tokenHash: Schema.String,
  invitedBy: UserId,
  expiresAt: Schema.String,
  acceptedAt: Schema.NullOr(Schema.String),
  acceptedBy: Schema.NullOr(UserId),
  createdAt: Schema.String
})
export type TeamInvite = typeof TeamInvite.Type

/** An invitation as the team sees it: never its token. */
export const TeamInviteView = Schema.Struct({
  id: Schema.String,
  object: Schema.Literal("team_invite"),
  teamId: Schema.String,
  email: Schema.String,
  role: Role,
  status: Schema.Literals(["pending", "accepted", "expired"]),
  invitedBy: Schema.String,
  expiresAt: Schema.String,
  acceptedAt: Schema.NullOr(Schema.String),
  createdAt: Schema.String
})
export type TeamInviteView = typeof TeamInviteView.Type

/** The view of an invitation as of `nowMs`. */
export const teamInviteView = (invite: TeamInvite, nowMs: number): TeamInviteView => ({
  id: invite.id,
  object: "team_invite",
  teamId: invite.teamId,
  email: invite.email,
  role: invite.role,
  status: invite.acceptedAt !== null ? "accepted" : Date.parse(invite.expiresAt) <= nowMs ? "expired" : "pending",
  invitedBy: invite.invitedBy,
  expiresAt: invite.expiresAt,
  acceptedAt: invite.acceptedAt,
  createdAt: invite.createdAt
})

/** Whether an actor of role `actor` may give or take away `role` (only owners touch the owner role). */
export const mayAssignRole = (actor: Role, role: Role): boolean =>
  actor === "owner" || (actor === "admin" && role !== "owner")

/** Whether a role may manage the team: its settings, invitations and members. */
export const mayManageTeam = (role: Role): boolean => role === "owner" || role === "admin"

/** An e-mail address as compared and looked up: without surrounding spaces, in lower case. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase()

/** E-mail addresses compare without case and surrounding spaces. */
export const sameEmail = (a: string, b: string): boolean => normalizeEmail(a) === normalizeEmail(b)

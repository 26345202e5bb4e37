import { Clock, Context, Effect, Layer, Option, Schema } from "effect"
import { Mailer } from "../platform/index.ts"
import {
  constantTimeEqual,
  generateSecret,
  hashSecret,
  isoOfMillis,
  newIdText,
  type PersistenceUnavailable,
  type TeamId,
  Transactor,
  type UserId
} from "../shared/index.ts"
import { mayAssignRole, mayManageTeam, sameEmail, type TeamInvite, type TeamMember } from "./Member.ts"
import type { Role, Team } from "./Team.ts"
import { TeamNotFound, TeamsRepo } from "./Teams.ts"
import type { User } from "./User.ts"
import { UsersRepo } from "./Users.ts"

/** The prefix of invitation tokens. */
export const INVITE_TOKEN_PREFIX = "svcinv_"

/** How long an invitation stays acceptable, in seconds (7 days unless provided). */
export const InviteTtlSeconds = Context.Reference<number>("@svc/domain/InviteTtlSeconds", {
  defaultValue: () => 7 * 86_400
})

/** Where the dashboard accepts an invitation: its token goes in the fragment (`#invitation=`), never to a server log. */
export interface TeamManagementSettings {
  readonly invitationUrl: string
}

/** A member of a team acting on it. */
export interface TeamActor {
  readonly userId: UserId
  readonly teamId: TeamId
  readonly role: Role
}

/** The actor's role does not allow this on the team (`action` says what was refused). */
export class TeamActionForbidden extends Schema.TaggedError<TeamActionForbidden>()("TeamActionForbidden", {
  action: Schema.String
}) {}

/** The user is not a member of the team. */
export class MemberNotFound extends Schema.TaggedError<MemberNotFound>()("MemberNotFound", {
  userId: Schema.String
}) {}

/** The change would leave the team without an owner. */
export class LastOwner extends Schema.TaggedError<LastOwner>()("LastOwner", { teamId: Schema.String }) {}

/** No invitation has this token. */
export class InviteNotFound extends Schema.TaggedError<InviteNotFound>()("InviteNotFound", {}) {}

/** The invitation was accepted already or has expired. */
export class InviteNotUsable extends Schema.TaggedError<InviteNotUsable>()("InviteNotUsable", {
  reason: Schema.Literals(["used", "expired"])
}) {}

/** The invitation is addressed to another e-mail address than the accepting user's. */
export class InviteEmailMismatch extends Schema.TaggedError<InviteEmailMismatch>()("InviteEmailMismatch", {}) {}

/** The accepting user is a member of the team already. */
export class AlreadyMember extends Schema.TaggedError<AlreadyMember>()("AlreadyMember", { teamId: Schema.String }) {}

/** Storage of team invitations, found by the hash of their token. */
export class TeamInvitesRepo extends Context.Service<
  TeamInvitesRepo,
  {
    readonly insert: (invite: TeamInvite) => Effect.Effect<void, PersistenceUnavailable>
    readonly findByTokenHash: (hash: string) => Effect.Effect<Option.Option<TeamInvite>, PersistenceUnavailable>
    /** Whether an invitation to this address (compared without case) is neither accepted nor expired at `at`. */
    readonly hasPendingFor: (email: string, at: string) => Effect.Effect<boolean, PersistenceUnavailable>
    /** The team's invitations, newest first. */
    readonly listForTeam: (teamId: TeamId) => Effect.Effect<ReadonlyArray<TeamInvite>, PersistenceUnavailable>
    /**
     * Marks the invitation accepted by `userId` at `at` if it is neither accepted nor expired by then; false (and no
     * change) otherwise, so of concurrent acceptances one wins.
     */
    readonly markAccepted: (id: string, userId: UserId, at: string) => Effect.Effect<boolean, PersistenceUnavailable>
  }
>()("@svc/domain/TeamInvitesRepo") {}

/** What may change about a team. */
export interface TeamPatch {
  readonly name?: string | undefined
  readonly baseCurrency?: string | undefined
}

/** Input to invite someone. */
export interface InviteMember {
  readonly email: string
  readonly role: Role
}

/**
 * A team's settings and members: update the team, invite by e-mail through the `Mailer`, accept an invitation, change
 * a role, remove a member. Membership changes of one team run under its row lock, so a team always keeps an owner.
 */
export class TeamManagement extends Context.Service<
  TeamManagement,
  {
    readonly get: (teamId: TeamId) => Effect.Effect<Team, TeamNotFound | PersistenceUnavailable>
    /** Changes the team's name or base currency (owners and admins). */
    readonly update: (
      actor: TeamActor,
      patch: TeamPatch
    ) => Effect.Effect<Team, TeamActionForbidden | TeamNotFound | PersistenceUnavailable>
    readonly members: (teamId: TeamId) => Effect.Effect<ReadonlyArray<TeamMember>, PersistenceUnavailable>
    /** Mails an invitation with a single-use token (owners and admins; only owners invite owners). */
    readonly invite: (
      actor: TeamActor,
      input: InviteMember
    ) => Effect.Effect<TeamInvite, TeamActionForbidden | PersistenceUnavailable>
    readonly invites: (teamId: TeamId) => Effect.Effect<ReadonlyArray<TeamInvite>, PersistenceUnavailable>
    /** Joins the invitation's team with its role and makes it the user's current team; the token works once. */
    readonly accept: (
      user: User,
      token: string
    ) => Effect.Effect<
      TeamMember,
      InviteNotFound | InviteNotUsable | InviteEmailMismatch | AlreadyMember | PersistenceUnavailable
    >
    /** Changes a member's role (owners and admins; only owners touch the owner role); the last owner stays owner. */
    readonly changeRole: (
      actor: TeamActor,
      userId: UserId,
      role: Role
    ) => Effect.Effect<TeamMember, TeamActionForbidden | MemberNotFound | LastOwner | PersistenceUnavailable>
    /** Removes a member (owners and admins; anyone may leave); the last owner cannot go. */
    readonly removeMember: (
      actor: TeamActor,
      userId: UserId
    ) => Effect.Effect<TeamMember, TeamActionForbidden | MemberNotFound | LastOwner | PersistenceUnavailable>
  }
>()("@svc/domain/TeamManagement") {
  static readonly make = (settings: TeamManagementSettings) =>
    Effect.gen(function* () {
      const teams = yield* TeamsRepo
      const users = yield* UsersRepo
      const invitesRepo = yield* TeamInvitesRepo
      const transactor = yield* Transactor
      const mailer = yield* Mailer
      const ttlSeconds = yield* InviteTtlSeconds

      const get = Effect.fn("TeamManagement.get")(function* (teamId: TeamId) {
        const team = yield* teams.findById(teamId)
        if (Option.isNone(team)) return yield* new TeamNotFound({ teamId })
        return team.value
      })

      const requireManager = (actor: TeamActor, action: string) =>
        mayManageTeam(actor.role) ? Effect.void : Effect.fail(new TeamActionForbidden({ action }))

      const update = Effect.fn("TeamManagement.update")(function* (actor: TeamActor, patch: TeamPatch) {
        yield* requireManager(actor, "update the team")
        return yield* transactor.withTransaction(
          Effect.gen(function* () {
            yield* teams.lockTeam(actor.teamId)
            const current = yield* get(actor.teamId)
            const next: Team = {
              ...current,
              name: patch.name ?? current.name,
              baseCurrency: patch.baseCurrency ?? current.baseCurrency
            }
            yield* teams.update(next)
            return next
          })
        )
      })

      const invite = Effect.fn("TeamManagement.invite")(function* (actor: TeamActor, input: InviteMember) {
        yield* requireManager(actor, "invite members")
        if (!mayAssignRole(actor.role, input.role)) {
          return yield* new TeamActionForbidden({ action: `invite with the role ${input.role}` })
        }
        const team = yield* get(actor.teamId).pipe(Effect.catchTag("TeamNotFound", Effect.die))
        const token = yield* generateSecret(INVITE_TOKEN_PREFIX)
        const now = yield* Clock.currentTimeMillis
        const invitation: TeamInvite = {
          id: yield* newIdText,
          teamId: actor.teamId,
          email: input.email.trim(),
          role: input.role,
          tokenHash: yield* hashSecret(token),
          invitedBy: actor.userId,
          expiresAt: isoOfMillis(now + ttlSeconds * 1000),
          acceptedAt: null,
          acceptedBy: null,
          createdAt: isoOfMillis(now)
        }
        yield* invitesRepo.insert(invitation)
        yield* mailer.send({
          to: invitation.email,
          subject: `You are invited to join ${team.name}`,
          text:
            `You have been invited to join ${team.name} as ${input.role}.\n` +
            `Accept it in the dashboard (sign in, or sign up, with this address when asked):\n` +
            `${settings.invitationUrl}#invitation=${token}\n` +
            `Or, signed in with this address, send POST /invites/accept with {"token": "${token}"}.\n` +
            `The invitation expires at ${invitation.expiresAt} and works once.`
        })
        return invitation
      })

      const memberOf = (teamId: TeamId, userId: UserId) =>
        Effect.map(teams.members(teamId), (all) => all.find((m) => m.userId === userId))

      const accept = Effect.fn("TeamManagement.accept")(function* (user: User, token: string) {
        const hash = yield* hashSecret(token)
        const found = yield* invitesRepo.findByTokenHash(hash)
        if (Option.isNone(found) || !constantTimeEqual(found.value.tokenHash, hash)) return yield* new InviteNotFound()
        const invitation = found.value
        const now = yield* Clock.currentTimeMillis
        if (invitation.acceptedAt !== null) return yield* new InviteNotUsable({ reason: "used" })
        if (Date.parse(invitation.expiresAt) <= now) return yield* new InviteNotUsable({ reason: "expired" })
        if (!sameEmail(invitation.email, user.email)) return yield* new InviteEmailMismatch()
        return yield* transactor.withTransaction(
          Effect.gen(function* () {
            yield* teams.lockTeam(invitation.teamId)
            if (Option.isSome(yield* teams.membership(invitation.teamId, user.id))) {
              return yield* new AlreadyMember({ teamId: invitation.teamId })
            }
            if (!(yield* invitesRepo.markAccepted(invitation.id, user.id, isoOfMillis(now)))) {
              return yield* new InviteNotUsable({ reason: "used" })
            }
            yield* teams.addMember(invitation.teamId, user.id, invitation.role)
            yield* users.setCurrentTeam(user.id, invitation.teamId)
            const member = yield* memberOf(invitation.teamId, user.id)
            return member ?? (yield* Effect.die(new Error("the member just added is missing")))
          })
        )
      })

      /**
       * Under the team's lock: the actor's role as of now (a concurrent change may have taken it), the member `userId`,
       * and whether they are the team's only owner.
       */
      const lockedMember = (actor: TeamActor, userId: UserId, action: string) =>
        Effect.gen(function* () {
          yield* teams.lockTeam(actor.teamId)
          const all = yield* teams.members(actor.teamId)
          const self = all.find((m) => m.userId === actor.userId)
          if (self === undefined) return yield* new TeamActionForbidden({ action })
          const member = all.find((m) => m.userId === userId)
          if (member === undefined) return yield* new MemberNotFound({ userId })
          const lastOwner = member.role === "owner" && all.filter((m) => m.role === "owner").length === 1
          return { role: self.role, member, lastOwner }
        })

      const changeRole = Effect.fn("TeamManagement.changeRole")(function* (
        actor: TeamActor,
        userId: UserId,
        role: Role
      ) {
        yield* requireManager(actor, "change roles")
        return yield* transactor.withTransaction(
          Effect.gen(function* () {
            const now = yield* lockedMember(actor, userId, "change roles")
            const { member, lastOwner } = now
            if (!mayManageTeam(now.role) || !mayAssignRole(now.role, member.role) || !mayAssignRole(now.role, role)) {
              return yield* new TeamActionForbidden({ action: `change the role ${member.role} to ${role}` })
            }
            if (lastOwner && role !== "owner") return yield* new LastOwner({ teamId: actor.teamId })
            yield* teams.setRole(actor.teamId, userId, role)
            return { ...member, role }
          })
        )
      })

      const removeMember = Effect.fn("TeamManagement.removeMember")(function* (actor: TeamActor, userId: UserId) {
        const leaving = userId === actor.userId
        if (!leaving) yield* requireManager(actor, "remove members")
        return yield* transactor.withTransaction(
          Effect.gen(function* () {
            const now = yield* lockedMember(actor, userId, "remove members")
            const { member, lastOwner } = now
            if (!leaving && (!mayManageTeam(now.role) || !mayAssignRole(now.role, member.role))) {
              return yield* new TeamActionForbidden({ action: `remove a member with the role ${member.role}` })
            }
            if (lastOwner) return yield* new LastOwner({ teamId: actor.teamId })
            yield* teams.removeMember(actor.teamId, userId)
            return member
          })
        )
      })

      return TeamManagement.of({
        get,
        update,
        members: Effect.fn("TeamManagement.members")((teamId: TeamId) => teams.members(teamId)),
        invite,
        invites: Effect.fn("TeamManagement.invites")((teamId: TeamId) => invitesRepo.listForTeam(teamId)),
        accept,
        changeRole,
        removeMember
      })
    })
  static readonly layer = (settings: TeamManagementSettings) =>
    Layer.effect(TeamManagement, TeamManagement.make(settings))
}

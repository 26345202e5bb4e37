import { Schema } from "effect"
import { TeamId, UserId } from "../shared/model.ts"

/** A person who signs in with a session; provisioned on first use. */
export const User = Schema.Struct({
  id: UserId,
  email: Schema.String,
  fullName: Schema.NullOr(Schema.String),
  currentTeamId: Schema.NullOr(TeamId),
  createdAt: Schema.String
})
export type User = typeof User.Type

/** The signed-in user, the team they act for and that team's file key. */
export const UserView = Schema.Struct({
  id: Schema.String,
  email: Schema.String,
  fullName: Schema.NullOr(Schema.String),
  teamId: Schema.NullOr(Schema.String),
  fileKey: Schema.NullOr(Schema.String)
})
export type UserView = typeof UserView.Type

/** The view of a user acting for `teamId` (null: no team), whose file key is `fileKey`. */
export const userView = (user: User, teamId: TeamId | null, fileKey: string | null): UserView => ({
  id: user.id,
  email: user.email,
  fullName: user.fullName,
  teamId,
  fileKey
})

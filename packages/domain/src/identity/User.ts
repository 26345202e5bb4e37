import { Schema } from "effect"
import { TeamId, UserId } from "../shared/model.ts"

/** The date formats a user may prefer. */
export const DateFormat = Schema.Literals(["dd/MM/yyyy", "MM/dd/yyyy", "yyyy-MM-dd", "dd.MM.yyyy"])

/** A user's display preferences, each null until set; the service stores them for its clients and reads none. */
export const UserPreferences = Schema.Struct({
  locale: Schema.NullOr(Schema.String),
  timezone: Schema.NullOr(Schema.String),
  timezoneAutoSync: Schema.NullOr(Schema.Boolean),
  weekStartsOnMonday: Schema.NullOr(Schema.Boolean),
  timeFormat: Schema.NullOr(Schema.Literals([12, 24])),
  dateFormat: Schema.NullOr(DateFormat)
})
export type UserPreferences = typeof UserPreferences.Type

/** A person who signs in with a session; provisioned on first use. */
export const User = Schema.Struct({
  id: UserId,
  email: Schema.String,
  fullName: Schema.NullOr(Schema.String),
  currentTeamId: Schema.NullOr(TeamId),
  createdAt: Schema.String,
  ...UserPreferences.fields
})
export type User = typeof User.Type

/** How a person is named to others: their full name, else their e-mail. */
export const displayNameOf = (user: Pick<User, "fullName" | "email">): string => user.fullName ?? user.email

/** The team a user acts for, as their profile shows it. */
export const UserTeamView = Schema.Struct({ id: Schema.String, name: Schema.String, baseCurrency: Schema.String })
export type UserTeamView = typeof UserTeamView.Type

/** The signed-in user, the team they act for and that team's file key. */
export const UserView = Schema.Struct({
  id: Schema.String,
  email: Schema.String,
  fullName: Schema.NullOr(Schema.String),
  teamId: Schema.NullOr(Schema.String),
  team: Schema.NullOr(UserTeamView),
  fileKey: Schema.NullOr(Schema.String),
  ...UserPreferences.fields
})
export type UserView = typeof UserView.Type

/** The view of a user acting for `teamId` (null: no team), shown as `team`, whose file key is `fileKey`. */
export const userView = (
  user: User,
  acting: { readonly teamId: TeamId | null; readonly team: UserTeamView | null },
  fileKey: string | null
): UserView => ({
  id: user.id,
  email: user.email,
  fullName: user.fullName,
  teamId: acting.teamId,
  team: acting.team,
  fileKey,
  locale: user.locale,
  timezone: user.timezone,
  timezoneAutoSync: user.timezoneAutoSync,
  weekStartsOnMonday: user.weekStartsOnMonday,
  timeFormat: user.timeFormat,
  dateFormat: user.dateFormat
})

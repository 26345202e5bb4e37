import { Schema } from "effect"
import { Currency, TeamId } from "../shared/model.ts"

/** A member's role in a team. */
export const Role = Schema.Literals(["owner", "admin", "member"])
export type Role = typeof Role.Type

/** A team (workspace): it owns every other resource. */
export const Team = Schema.Struct({
  id: TeamId,
  name: Schema.String,
  baseCurrency: Currency,
  createdAt: Schema.String
})
export type Team = typeof Team.Type

/** A team seen by one of its members. */
export const Membership = Schema.Struct({ team: Team, role: Role })
export type Membership = typeof Membership.Type

/** A team as its member sees it. */
export const TeamView = Schema.Struct({
  id: Schema.String,
  object: Schema.Literal("team"),
  name: Schema.String,
  baseCurrency: Schema.String,
  role: Role,
  createdAt: Schema.String
})
export type TeamView = typeof TeamView.Type

/** The view of a membership's team. */
export const teamView = (membership: Membership): TeamView => ({
  id: membership.team.id,
  object: "team",
  name: membership.team.name,
  baseCurrency: membership.team.baseCurrency,
  role: membership.role,
  createdAt: membership.team.createdAt
})

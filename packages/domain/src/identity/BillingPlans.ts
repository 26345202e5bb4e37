import { Context, type Effect, type Option, Schema } from "effect"
import { TeamId } from "../shared/index.ts"
import type { PersistenceUnavailable } from "../shared/model.ts"

/** A team's subscription plan as the billing provider last reported it. */
export const TeamPlan = Schema.Struct({
  teamId: TeamId,
  plan: Schema.String,
  status: Schema.String,
  updatedAt: Schema.String
})
export type TeamPlan = typeof TeamPlan.Type

/** Storage of team plans. */
export class TeamPlansRepo extends Context.Service<
  TeamPlansRepo,
  {
    /** Replaces the team's plan. */
    readonly upsert: (plan: TeamPlan) => Effect.Effect<void, PersistenceUnavailable>
    readonly find: (teamId: TeamId) => Effect.Effect<Option.Option<TeamPlan>, PersistenceUnavailable>
  }
>()("@svc/domain/TeamPlansRepo") {}

import { Context, type Effect, type Option } from "effect"
import type { PersistenceUnavailable, TeamId } from "../shared/index.ts"

/** A team's subscription plan as the billing provider last reported it. */
export interface TeamPlan {
  readonly teamId: TeamId
  readonly plan: string
  readonly status: string
  readonly updatedAt: string
}

/** Storage of team plans. */
export class TeamPlansRepo extends Context.Service<
  TeamPlansRepo,
  {
    /** Replaces the team's plan. */
    readonly upsert: (plan: TeamPlan) => Effect.Effect<void, PersistenceUnavailable>
    readonly find: (teamId: TeamId) => Effect.Effect<Option.Option<TeamPlan>, PersistenceUnavailable>
  }
>()("@svc/domain/TeamPlansRepo") {}

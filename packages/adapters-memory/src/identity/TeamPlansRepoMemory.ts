import { type TeamPlan, TeamPlansRepo } from "@svc/domain"
import { Effect, Layer, Option, Ref } from "effect"
import { MemoryStore } from "../shared/index.ts"

/** TeamPlansRepo over the in-memory store. */
export const TeamPlansRepoMemory = Layer.effect(
  TeamPlansRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const rows = yield* store.table<ReadonlyMap<string, TeamPlan>>(new Map())
    return TeamPlansRepo.of({
      upsert: (plan) => store.atomically(Ref.update(rows, (all) => new Map(all).set(plan.teamId, plan))),
      find: (teamId) => Ref.get(rows).pipe(Effect.map((all) => Option.fromNullishOr(all.get(teamId))))
    })
  })
)

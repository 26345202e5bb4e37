import { type SpendFreeze, SpendFreezesRepo } from "@svc/domain"
import { Effect, Layer, Option, Ref } from "effect"
import { MemoryStore } from "../shared/index.ts"

const sameScope = (f: SpendFreeze, teamId: string, spendingKeyId: string | null) =>
  f.teamId === teamId && f.spendingKeyId === spendingKeyId && f.liftedAt === null

const teamFirst = (a: SpendFreeze, b: SpendFreeze): number =>
  a.spendingKeyId === b.spendingKeyId
    ? 0
    : a.spendingKeyId === null
      ? -1
      : b.spendingKeyId === null
        ? 1
        : a.spendingKeyId < b.spendingKeyId
          ? -1
          : 1

/** SpendFreezesRepo over the in-memory store; a freeze is a compare-and-set on its scope's active freeze. */
export const SpendFreezesRepoMemory = Layer.effect(
  SpendFreezesRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const freezes = yield* store.table<ReadonlyArray<SpendFreeze>>([])
    return SpendFreezesRepo.of({
      insert: (freeze) =>
        store.atomically(
          Ref.modify(freezes, (rows) => {
            const existing = rows.find((f) => sameScope(f, freeze.teamId, freeze.spendingKeyId))
            return existing === undefined
              ? [Option.none<SpendFreeze>(), [...rows, freeze]]
              : [Option.some(existing), rows]
          })
        ),
      lift: (teamId, spendingKeyId, liftedBy, liftedAt) =>
        store.atomically(
          Ref.modify(freezes, (rows) => {
            const existing = rows.find((f) => sameScope(f, teamId, spendingKeyId))
            if (existing === undefined) return [Option.none<SpendFreeze>(), rows]
            const lifted: SpendFreeze = { ...existing, liftedBy, liftedAt }
            return [Option.some(lifted), rows.map((f) => (f === existing ? lifted : f))]
          })
        ),
      active: (teamId) =>
        Ref.get(freezes).pipe(
          Effect.map((rows) => rows.filter((f) => f.teamId === teamId && f.liftedAt === null).toSorted(teamFirst))
        )
    })
  })
)

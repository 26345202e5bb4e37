import { type BankConnection, BankConnectionsRepo } from "@svc/domain"
import { Effect, Layer, Option, Ref } from "effect"
import { MemoryStore } from "../../shared/index.ts"

const keyOf = (provider: string, externalId: string) => `${provider}\u0000${externalId}`

/** BankConnectionsRepo over the in-memory store. */
export const BankConnectionsRepoMemory = Layer.effect(
  BankConnectionsRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const rows = yield* store.table<ReadonlyMap<string, BankConnection>>(new Map())
    return BankConnectionsRepo.of({
      insert: (c) => store.atomically(Ref.update(rows, (all) => new Map(all).set(keyOf(c.provider, c.externalId), c))),
      findByExternalId: (provider, externalId) =>
        Ref.get(rows).pipe(Effect.map((all) => Option.fromNullishOr(all.get(keyOf(provider, externalId))))),
      find: (teamId, id) =>
        Ref.get(rows).pipe(
          Effect.map((all) => Option.fromNullishOr([...all.values()].find((c) => c.id === id && c.teamId === teamId)))
        ),
      setStatus: (provider, externalId, status, at) =>
        store.atomically(
          Effect.gen(function* () {
            const all = yield* Ref.get(rows)
            const key = keyOf(provider, externalId)
            const found = all.get(key)
            if (found === undefined) return false
            yield* Ref.set(rows, new Map(all).set(key, { ...found, status, updatedAt: at }))
            return true
          })
        )
    })
  })
)

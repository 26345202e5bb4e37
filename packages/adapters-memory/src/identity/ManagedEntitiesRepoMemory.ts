import { ManagedEntitiesRepo, type ManagedEntity } from "@svc/domain"
import { Effect, Layer, Option, Ref } from "effect"
import { MemoryStore } from "../shared/index.ts"

/** ManagedEntitiesRepo over the in-memory store. */
export const ManagedEntitiesRepoMemory = Layer.effect(
  ManagedEntitiesRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const rows = yield* store.table<ReadonlyMap<string, ManagedEntity>>(new Map())
    return ManagedEntitiesRepo.of({
      insert: (entity) => store.atomically(Ref.update(rows, (all) => new Map(all).set(entity.id, entity))),
      find: (id) => Ref.get(rows).pipe(Effect.map((all) => Option.fromNullishOr(all.get(id)))),
      setKycStatus: (id, status, provider, at) =>
        store.atomically(
          Effect.gen(function* () {
            const all = yield* Ref.get(rows)
            const entity = all.get(id)
            if (entity === undefined) return false
            yield* Ref.set(
              rows,
              new Map(all).set(id, { ...entity, kycStatus: status, kycProvider: provider, kycUpdatedAt: at })
            )
            return true
          })
        )
    })
  })
)

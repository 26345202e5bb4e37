import type { StoredResponse } from "@svc/domain"
import { IdempotencyStore, scopeText } from "@svc/domain"
import { Effect, HashMap, HashSet, Layer, Ref } from "effect"
import { MemoryStore } from "../shared/index.ts"

/**
 * IdempotencyStore over the in-memory store: the lock is an in-flight set of this process, taken before the
 * serialised transaction so a second request sees it at once instead of queueing behind the first. An interrupted
 * request rolls its transaction back (MemoryStore restores every table on interruption).
 */
export const IdempotencyStoreMemory = Layer.effect(
  IdempotencyStore,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const responses = yield* store.table<HashMap.HashMap<string, StoredResponse>>(HashMap.empty())
    const inFlight = yield* Ref.make(HashSet.empty<string>())

    const acquire = (key: string) =>
      Ref.modify(inFlight, (set) => (HashSet.has(set, key) ? [false, set] : [true, HashSet.add(set, key)]))

    return IdempotencyStore.of({
      exclusive: (scope, self) => {
        const key = scopeText(scope)
        return Effect.acquireUseRelease(
          acquire(key),
          (acquired) => (acquired ? Effect.asSome(store.atomically(self)) : Effect.succeedNone),
          (acquired) => (acquired ? Ref.update(inFlight, HashSet.remove(key)) : Effect.void)
        )
      },
      find: (scope) => Ref.get(responses).pipe(Effect.map(HashMap.get(scopeText(scope)))),
      save: (scope, response) =>
        store.atomically(
          Ref.modify(responses, (map) => {
            const key = scopeText(scope)
            return HashMap.has(map, key)
              ? ([false, map] as const)
              : ([true, HashMap.set(map, key, { ...response, body: Uint8Array.from(response.body) })] as const)
          })
        ),
      purgeCreatedBefore: (cutoff) =>
        store.atomically(
          Ref.modify(responses, (map) => {
            const kept = HashMap.filter(map, (r) => r.createdAt >= cutoff)
            return [HashMap.size(map) - HashMap.size(kept), kept] as const
          })
        )
    })
  })
)

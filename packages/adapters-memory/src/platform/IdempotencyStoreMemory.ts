import { type IdempotencyScope, IdempotencyStore, isStoredOutcome, type StoredAnswer, scopeText } from "@svc/domain"
import { type Array as Arr, Effect, HashMap, HashSet, Layer, Ref } from "effect"
import { MemoryStore } from "../shared/index.ts"

/**
 * IdempotencyStore over the in-memory store: a lock is an in-flight entry of this process, taken before the
 * serialised transaction so a second request sees it at once instead of queueing behind the first. An interrupted
 * request rolls its transaction back (MemoryStore restores every table on interruption).
 */
export const IdempotencyStoreMemory = Layer.effect(
  IdempotencyStore,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const responses = yield* store.table<HashMap.HashMap<string, StoredAnswer>>(HashMap.empty())
    const inFlight = yield* Ref.make(HashSet.empty<string>())

    /** Takes every free lock among `keys`; true where this call took it. */
    const acquire = (keys: ReadonlyArray<string>) =>
      Ref.modify(inFlight, (set) => {
        const held: Array<boolean> = []
        let next = set
        for (const key of keys) {
          held.push(!HashSet.has(next, key))
          next = HashSet.add(next, key)
        }
        return [held, next] as const
      })

    const release = (keys: ReadonlyArray<string>, held: ReadonlyArray<boolean>) =>
      Ref.update(inFlight, (set) =>
        keys.reduce((acc, key, i) => (held[i] === true ? HashSet.remove(acc, key) : acc), set)
      )

    /** Runs `use` with the locks of `scopes` this call could take, releasing them after. */
    const holding = <A, E, R>(
      scopes: ReadonlyArray<IdempotencyScope>,
      use: (held: ReadonlyArray<boolean>) => Effect.Effect<A, E, R>
    ) => {
      const keys = scopes.map(scopeText)
      return Effect.acquireUseRelease(acquire(keys), use, (held) => release(keys, held))
    }

    const saveEach = (
      answers: Arr.NonEmptyReadonlyArray<{ readonly scope: IdempotencyScope; readonly response: StoredAnswer }>
    ) =>
      store.atomically(
        Ref.modify(responses, (map) => {
          const saved: Array<boolean> = []
          let next = map
          for (const { scope, response } of answers) {
            const key = scopeText(scope)
            saved.push(!HashMap.has(next, key))
            if (!HashMap.has(next, key))
              next = HashMap.set(
                next,
                key,
                isStoredOutcome(response) ? response : { ...response, body: Uint8Array.from(response.body) }
              )
          }
          return [saved, next] as const
        })
      )

    return IdempotencyStore.of({
      exclusive: (scope, self) =>
        holding([scope], ([held]) => (held === true ? Effect.asSome(store.atomically(self)) : Effect.succeedNone)),
      exclusiveEach: (scopes, self) => holding(scopes, (held) => store.atomically(self(Effect.succeed(held)))),
      find: (scope) => Ref.get(responses).pipe(Effect.map(HashMap.get(scopeText(scope)))),
      save: (scope, response) => Effect.map(saveEach([{ scope, response }]), ([saved]) => saved === true),
      saveEach,
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

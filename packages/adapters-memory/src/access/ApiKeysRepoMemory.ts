import { type ApiKey, type ApiKeyId, ApiKeysRepo, isAfter, newestFirst } from "@svc/domain"
import { Effect, HashMap, Layer, Option, Ref } from "effect"
import { MemoryStore } from "../shared/index.ts"

/** ApiKeysRepo over the in-memory store. */
export const ApiKeysRepoMemory = Layer.effect(
  ApiKeysRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const keys = yield* store.table(HashMap.empty<ApiKeyId, ApiKey>())
    return ApiKeysRepo.of({
      insert: (key) => store.atomically(Ref.update(keys, HashMap.set(key.id, key))),
      list: (teamId, page) =>
        Ref.get(keys).pipe(
          Effect.map((map) =>
            Array.from(HashMap.values(map))
              .filter((k) => k.teamId === teamId && isAfter(k, page.after))
              .toSorted(newestFirst)
              .slice(0, page.limit + 1)
          )
        ),
      find: (teamId, id) =>
        Ref.get(keys).pipe(Effect.map((map) => Option.filter(HashMap.get(map, id), (k) => k.teamId === teamId))),
      findBySecretHash: (secretHash) =>
        Ref.get(keys).pipe(
          Effect.map((map) =>
            Option.fromNullishOr(Array.from(HashMap.values(map)).find((k) => k.secretHash === secretHash))
          )
        ),
      revoke: (teamId, id, now) =>
        store.atomically(
          Ref.modify(keys, (map) => {
            const key = Option.filter(HashMap.get(map, id), (k) => k.teamId === teamId)
            if (Option.isNone(key)) return [Option.none<ApiKey>(), map] as const
            const revoked = { ...key.value, revokedAt: key.value.revokedAt ?? now }
            return [Option.some(revoked), HashMap.set(map, id, revoked)] as const
          })
        )
    })
  })
)

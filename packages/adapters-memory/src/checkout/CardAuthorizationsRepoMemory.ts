import { type CardAuthorization, CardAuthorizationsRepo } from "@svc/domain"
import { Effect, HashMap, Layer, Option, Ref } from "effect"
import { MemoryStore } from "../shared/index.ts"

/** CardAuthorizationsRepo over the in-memory store, keyed by the issuer's authorization token. */
export const CardAuthorizationsRepoMemory = Layer.effect(
  CardAuthorizationsRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const rows = yield* store.table(HashMap.empty<string, CardAuthorization>())
    return CardAuthorizationsRepo.of({
      find: (token) => Ref.get(rows).pipe(Effect.map(HashMap.get(token))),
      insert: (authorization) =>
        store.atomically(
          Ref.modify(rows, (map) =>
            HashMap.has(map, authorization.token)
              ? [false, map]
              : [true, HashMap.set(map, authorization.token, authorization)]
          )
        ),
      update: (token, from, update) =>
        store.atomically(
          Ref.modify(rows, (map) => {
            const row = HashMap.get(map, token)
            if (Option.isNone(row) || !from.includes(row.value.status)) {
              return [Option.none<CardAuthorization>(), map] as const
            }
            const next: CardAuthorization = { ...row.value, ...update }
            return [Option.some(next), HashMap.set(map, token, next)] as const
          })
        )
    })
  })
)

import { type X402Wallet, X402WalletsRepo } from "@svc/domain"
import { Effect, HashMap, Layer, Option, Ref } from "effect"
import { MemoryStore } from "../shared/index.ts"

/** X402WalletsRepo over the in-memory store: one wallet a team and mode, the first stored kept. */
export const X402WalletsRepoMemory = Layer.effect(
  X402WalletsRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const rows = yield* store.table(HashMap.empty<string, X402Wallet>())
    const keyOf = (teamId: string, mode: string) => `${teamId}:${mode}`
    return X402WalletsRepo.of({
      find: (teamId, mode) => Ref.get(rows).pipe(Effect.map(HashMap.get(keyOf(teamId, mode)))),
      insert: (wallet) =>
        store.atomically(
          Ref.modify(rows, (map) => {
            const existing = HashMap.get(map, keyOf(wallet.teamId, wallet.mode))
            return Option.isSome(existing)
              ? ([existing.value, map] as const)
              : ([wallet, HashMap.set(map, keyOf(wallet.teamId, wallet.mode), wallet)] as const)
          })
        )
    })
  })
)

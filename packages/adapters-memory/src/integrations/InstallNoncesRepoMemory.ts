import { InstallNoncesRepo } from "@svc/domain"
import { Effect, HashMap, Layer, Ref } from "effect"
import { MemoryStore } from "../shared/index.ts"

const keyOf = (purpose: string, nonce: string) => `${purpose}\u0000${nonce}`

/** InstallNoncesRepo over the in-memory store: a nonce is consumed by the one serialised write that finds it unused. */
export const InstallNoncesRepoMemory = Layer.effect(
  InstallNoncesRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const used = yield* store.table(HashMap.empty<string, string>())
    return InstallNoncesRepo.of({
      consume: (nonce) =>
        store.atomically(
          Ref.modify(used, (map) => {
            const key = keyOf(nonce.purpose, nonce.nonce)
            return HashMap.has(map, key) ? [false, map] : [true, HashMap.set(map, key, nonce.keepUntil)]
          })
        ),
      purgeBefore: (cutoff) =>
        store.atomically(
          Ref.modify(used, (map) => {
            const kept = HashMap.filter(map, (keepUntil) => Date.parse(keepUntil) >= Date.parse(cutoff))
            return [HashMap.size(map) - HashMap.size(kept), kept]
          })
        )
    })
  })
)

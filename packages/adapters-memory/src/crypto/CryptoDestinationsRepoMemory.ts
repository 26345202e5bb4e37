import {
  type CryptoDestination,
  type CryptoDestinationId,
  CryptoDestinationsRepo,
  isAfter,
  newestFirst
} from "@svc/domain"
import { Effect, HashMap, Layer, Option, Ref } from "effect"
import { MemoryStore } from "../shared/index.ts"

/** CryptoDestinationsRepo over the in-memory store; a removal is a conditional change, so a destination goes once. */
export const CryptoDestinationsRepoMemory = Layer.effect(
  CryptoDestinationsRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const rows = yield* store.table(HashMap.empty<CryptoDestinationId, CryptoDestination>())
    return CryptoDestinationsRepo.of({
      insert: (destination) => store.atomically(Ref.update(rows, HashMap.set(destination.id, destination))),
      find: (id) => Ref.get(rows).pipe(Effect.map(HashMap.get(id))),
      list: (teamId, mode, page) =>
        Ref.get(rows).pipe(
          Effect.map((map) =>
            Array.from(HashMap.values(map))
              .filter((d) => d.teamId === teamId && d.mode === mode && d.removedAt === null && isAfter(d, page.after))
              .toSorted(newestFirst)
              .slice(0, page.limit + 1)
          )
        ),
      remove: (id, removedAt) =>
        store.atomically(
          Ref.modify(rows, (map) => {
            const current = HashMap.get(map, id)
            if (Option.isNone(current) || current.value.removedAt !== null)
              return [Option.none<CryptoDestination>(), map] as const
            const removed: CryptoDestination = { ...current.value, removedAt }
            return [Option.some(removed), HashMap.set(map, id, removed)] as const
          })
        )
    })
  })
)

import { type ReceiveHandle, ReceiveHandlesRepo, type TeamId } from "@svc/domain"
import { Effect, HashMap, Layer, Option, Ref } from "effect"
import { MemoryStore } from "../shared/index.ts"

/** ReceiveHandlesRepo over the in-memory store: handles by team, unique across teams. */
export const ReceiveHandlesRepoMemory = Layer.effect(
  ReceiveHandlesRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const byTeam = yield* store.table(HashMap.empty<TeamId, ReceiveHandle>())
    const findByHandle = (handle: string) =>
      Ref.get(byTeam).pipe(Effect.map((map) => HashMap.findFirst(map, (h) => h.handle === handle)))
    return ReceiveHandlesRepo.of({
      insert: (handle) =>
        store.atomically(
          Effect.gen(function* () {
            if (HashMap.has(yield* Ref.get(byTeam), handle.teamId)) return false
            if (Option.isSome(yield* findByHandle(handle.handle))) return false
            yield* Ref.update(byTeam, HashMap.set(handle.teamId, handle))
            return true
          })
        ),
      findByTeam: (teamId) => Ref.get(byTeam).pipe(Effect.map(HashMap.get(teamId))),
      findByHandle: (handle) => findByHandle(handle).pipe(Effect.map(Option.map(([, found]) => found)))
    })
  })
)

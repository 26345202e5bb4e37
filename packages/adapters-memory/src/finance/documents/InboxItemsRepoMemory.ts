import { type InboxItem, InboxItemsRepo, newestFirst } from "@svc/domain"
import { Effect, Layer, Ref } from "effect"
import { MemoryStore } from "../../shared/index.ts"

/** InboxItemsRepo over the in-memory store. */
export const InboxItemsRepoMemory = Layer.effect(
  InboxItemsRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const rows = yield* store.table<ReadonlyArray<InboxItem>>([])
    return InboxItemsRepo.of({
      insert: (item) =>
        store.atomically(
          Effect.gen(function* () {
            const all = yield* Ref.get(rows)
            if (all.some((r) => r.teamId === item.teamId && r.messageId === item.messageId)) return false
            yield* Ref.set(rows, [...all, item])
            return true
          })
        ),
      list: (teamId) =>
        Ref.get(rows).pipe(
          Effect.map((all) =>
            all
              .filter((r) => r.teamId === teamId)
              .toSorted((a, b) =>
                newestFirst({ createdAt: a.createdAt, id: a.id }, { createdAt: b.createdAt, id: b.id })
              )
          )
        )
    })
  })
)

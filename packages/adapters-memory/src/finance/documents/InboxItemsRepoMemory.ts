import { type InboxItem, InboxItemsRepo, isAfter, newestFirst, TransactionId, TransactionsRepo } from "@svc/domain"
import { Effect, Layer, Option, Ref } from "effect"
import { MemoryStore } from "../../shared/index.ts"

/**
 * InboxItemsRepo over the in-memory store. A match is read through the transactions port, so a deleted transaction
 * unmatches its items as Postgres's `ON DELETE SET NULL` does.
 */
export const InboxItemsRepoMemory = Layer.effect(
  InboxItemsRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const transactions = yield* TransactionsRepo
    const rows = yield* store.table<ReadonlyMap<string, InboxItem>>(new Map())
    const ofTeam = (teamId: string, id: string) => (all: ReadonlyMap<string, InboxItem>) =>
      Option.filter(Option.fromNullishOr(all.get(id)), (i) => i.teamId === teamId)
    const withLiveMatch = (item: InboxItem) =>
      item.transactionId === null
        ? Effect.succeed(item)
        : transactions
            .find(item.teamId, TransactionId.make(item.transactionId))
            .pipe(Effect.map((found) => (Option.isSome(found) ? item : { ...item, transactionId: null })))
    return InboxItemsRepo.of({
      insert: (item) =>
        store.atomically(
          Ref.modify(rows, (all) =>
            [...all.values()].some((r) => r.teamId === item.teamId && r.messageId === item.messageId)
              ? ([false, all] as const)
              : ([true, new Map(all).set(item.id, item)] as const)
          )
        ),
      find: (teamId, id) =>
        Ref.get(rows).pipe(
          Effect.flatMap((all) =>
            Option.match(ofTeam(teamId, id)(all), {
              onNone: () => Effect.succeedNone,
              onSome: (item) => Effect.asSome(withLiveMatch(item))
            })
          )
        ),
      list: (teamId, status, page) =>
        Ref.get(rows).pipe(
          Effect.map((all) =>
            [...all.values()]
              .filter((i) => i.teamId === teamId && (status === null || i.status === status) && isAfter(i, page.after))
              .toSorted(newestFirst)
              .slice(0, page.limit + 1)
          ),
          Effect.flatMap((items) => Effect.forEach(items, withLiveMatch))
        ),
      update: (item) =>
        store.atomically(
          Ref.modify(rows, (all) =>
            Option.isNone(ofTeam(item.teamId, item.id)(all))
              ? ([false, all] as const)
              : ([true, new Map(all).set(item.id, item)] as const)
          )
        ),
      delete: (teamId, id) =>
        store.atomically(
          Ref.modify(rows, (all) => {
            if (Option.isNone(ofTeam(teamId, id)(all))) return [false, all] as const
            const next = new Map(all)
            next.delete(id)
            return [true, next] as const
          })
        )
    })
  })
)

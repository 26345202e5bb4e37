import { type BankAccount, BankAccountsRepo, type Transaction, TransactionsRepo } from "@svc/domain"
import { Effect, Layer, Ref } from "effect"
import { MemoryStore } from "../../shared/index.ts"

// Stand-ins until the in-memory TransactionsRepo (issue 11 A2) and BankAccountsRepo (A1) are merged: they store and
// list what the reports read; the lead replaces them by the real adapters when merging (see the fin-c report).
const unsupported = (operation: string) => Effect.die(`${operation} is not in the reports stand-in adapter`)

const byDateAsc = (a: Transaction, b: Transaction) =>
  a.date < b.date ? -1 : a.date > b.date ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0

/** TransactionsRepo stand-in: insert, and list by date ascending with the date-range filter. */
export const TransactionsRepoStandIn = Layer.effect(
  TransactionsRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const rows = yield* store.table<ReadonlyArray<Transaction>>([])
    return TransactionsRepo.of({
      insert: (transactions) =>
        Ref.update(rows, (all) => [...all, ...transactions.map((t) => t.transaction)]).pipe(store.atomically),
      list: (request) =>
        Ref.get(rows).pipe(
          Effect.map((all) => {
            const { from, to } = request.filter
            const after = request.after
            return all
              .filter(
                (t) =>
                  t.teamId === request.teamId &&
                  (from === undefined || t.date >= from) &&
                  (to === undefined || t.date <= to) &&
                  (after._tag === "None" ||
                    t.date > String(after.value.key) ||
                    (t.date === after.value.key && t.id > after.value.id))
              )
              .toSorted(byDateAsc)
              .slice(0, request.limit + 1)
              .map((transaction) => ({ transaction, category: null, account: null, tags: [], attachments: [] }))
          })
        ),
      insertImported: () => unsupported("insertImported"),
      find: () => unsupported("find"),
      update: () => unsupported("update"),
      remove: () => unsupported("remove"),
      addAttachment: () => unsupported("addAttachment"),
      removeAttachment: () => unsupported("removeAttachment")
    })
  })
)

/** BankAccountsRepo stand-in: insert, and list with the enabled filter. */
export const BankAccountsRepoStandIn = Layer.effect(
  BankAccountsRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const rows = yield* store.table<ReadonlyArray<BankAccount>>([])
    return BankAccountsRepo.of({
      insert: (account) => Ref.update(rows, (all) => [...all, account]).pipe(store.atomically),
      list: (teamId, filter) =>
        Ref.get(rows).pipe(
          Effect.map((all) =>
            all.filter((a) => a.teamId === teamId && (filter.enabled === undefined || a.enabled === filter.enabled))
          )
        ),
      find: () => unsupported("find"),
      findByExternalId: () => unsupported("findByExternalId"),
      update: () => unsupported("update"),
      remove: () => unsupported("remove")
    })
  })
)

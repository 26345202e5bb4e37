import type { AccountId } from "@svc/domain"
import {
  type Account,
  applyEntry,
  balanceOf,
  DuplicateLedgerTransaction,
  emptyCounters,
  HoldAlreadyResolved,
  isAfter,
  LedgerRepo,
  type LedgerTransaction,
  type LockedAccount,
  newestFirst
} from "@svc/domain"
import { Effect, HashMap, Layer, Option, Ref } from "effect"
import { MemoryStore } from "../shared/index.ts"

const withBalance = (row: LockedAccount) => ({ ...row.account, balance: balanceOf(row.counters) })

const oldestFirst = (a: Account, b: Account): number => newestFirst(b, a)

const findByKind = (
  map: HashMap.HashMap<AccountId, LockedAccount>,
  key: Pick<Account, "teamId" | "mode" | "kind" | "currency">
): Account | undefined =>
  Array.from(HashMap.values(map), (r) => r.account)
    .filter((a) => a.teamId === key.teamId && a.mode === key.mode && a.kind === key.kind && a.currency === key.currency)
    .toSorted(oldestFirst)[0]

/** LedgerRepo over the in-memory store. */
export const LedgerRepoMemory = Layer.effect(
  LedgerRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const accounts = yield* store.table(HashMap.empty<AccountId, LockedAccount>())
    const journal = yield* store.table<ReadonlyArray<LedgerTransaction>>([])

    const insertTransaction = (tx: LedgerTransaction) =>
      store.atomically(
        Effect.gen(function* () {
          const existing = yield* Ref.get(journal)
          const unique = tx.kind === "posted" || tx.kind === "pending"
          if (
            unique &&
            existing.some(
              (t) =>
                t.teamId === tx.teamId &&
                t.mode === tx.mode &&
                t.code === tx.code &&
                t.reference === tx.reference &&
                t.kind === tx.kind
            )
          ) {
            return yield* new DuplicateLedgerTransaction({ code: tx.code, reference: tx.reference })
          }
          if (tx.pendingId !== null && existing.some((t) => t.pendingId === tx.pendingId)) {
            return yield* new HoldAlreadyResolved({ holdId: tx.pendingId })
          }
          yield* Ref.set(journal, [...existing, tx])
          yield* Ref.update(accounts, (map) =>
            tx.entries.reduce(
              (acc, entry) =>
                HashMap.modify(acc, entry.accountId, (row) => ({
                  account: row.account,
                  counters: applyEntry(row.counters, entry, tx.pendingId !== null)
                })),
              map
            )
          )
        })
      )

    const insertAccount = (account: Account) =>
      Ref.update(accounts, HashMap.set(account.id, { account, counters: emptyCounters }))

    return LedgerRepo.of({
      insertAccount: (account) => store.atomically(insertAccount(account)),
      ensureAccount: (account) =>
        store.atomically(
          Effect.gen(function* () {
            const existing = findByKind(yield* Ref.get(accounts), account)
            if (existing !== undefined) return existing
            yield* insertAccount(account)
            return account
          })
        ),
      findAccount: (teamId, id) =>
        Ref.get(accounts).pipe(
          Effect.map((map) =>
            HashMap.get(map, id).pipe(
              Option.filter((row) => row.account.teamId === teamId),
              Option.map(withBalance)
            )
          )
        ),
      findAccountByKind: (teamId, mode, kind, currency) =>
        Ref.get(accounts).pipe(
          Effect.map((map) => Option.fromNullishOr(findByKind(map, { teamId, mode, kind, currency })))
        ),
      listAccounts: (teamId, filter) =>
        Ref.get(accounts).pipe(
          Effect.map((map) =>
            Array.from(HashMap.values(map))
              .filter(
                (r) =>
                  r.account.teamId === teamId &&
                  (filter.mode === undefined || r.account.mode === filter.mode) &&
                  (filter.kind === undefined || r.account.kind === filter.kind)
              )
              .map(withBalance)
              .toSorted(oldestFirst)
          )
        ),
      lockAccounts: (ids) =>
        Ref.get(accounts).pipe(
          Effect.map((map) =>
            Array.from(new Set(ids))
              .toSorted()
              .flatMap((id) => Option.toArray(HashMap.get(map, id)))
          )
        ),
      insertTransaction,
      findTransaction: (teamId, id) =>
        Ref.get(journal).pipe(
          Effect.map((txs) => Option.fromNullishOr(txs.find((t) => t.id === id && t.teamId === teamId)))
        ),
      listTransactions: (teamId, query, page) =>
        Ref.get(journal).pipe(
          Effect.map((txs) =>
            txs
              .filter(
                (t) =>
                  t.teamId === teamId &&
                  (query.mode === undefined || t.mode === query.mode) &&
                  (query.accountId === undefined || t.entries.some((e) => e.accountId === query.accountId)) &&
                  isAfter(t, page.after)
              )
              .toSorted(newestFirst)
              .slice(0, page.limit + 1)
          )
        )
    })
  })
)

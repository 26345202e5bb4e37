import { type BankAccount, type BankAccountChanges, BankAccountsRepo } from "@svc/domain"
import { Effect, Layer, Option, Ref } from "effect"
import { MemoryStore } from "../../shared/index.ts"

const applyChanges = (account: BankAccount, changes: BankAccountChanges): BankAccount => ({
  ...account,
  ...(changes.name === undefined ? {} : { name: changes.name }),
  ...(changes.type === undefined ? {} : { type: changes.type }),
  ...(changes.balanceMinor === undefined ? {} : { balanceMinor: changes.balanceMinor }),
  ...(changes.baseCurrency === undefined ? {} : { baseCurrency: changes.baseCurrency }),
  ...(changes.baseBalanceMinor === undefined ? {} : { baseBalanceMinor: changes.baseBalanceMinor }),
  ...(changes.enabled === undefined ? {} : { enabled: changes.enabled }),
  updatedAt: changes.updatedAt
})

const oldestFirst = (a: BankAccount, b: BankAccount) =>
  a.createdAt !== b.createdAt ? (a.createdAt < b.createdAt ? -1 : 1) : a.id < b.id ? -1 : 1

/** BankAccountsRepo over the in-memory store. */
export const BankAccountsRepoMemory = Layer.effect(
  BankAccountsRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const rows = yield* store.table<ReadonlyMap<string, BankAccount>>(new Map())
    const find = (teamId: string, id: string) =>
      Ref.get(rows).pipe(
        Effect.map((all) => Option.filter(Option.fromNullishOr(all.get(id)), (a) => a.teamId === teamId))
      )
    return BankAccountsRepo.of({
      insert: (account) => store.atomically(Ref.update(rows, (all) => new Map(all).set(account.id, account))),
      list: (teamId, filter) =>
        Ref.get(rows).pipe(
          Effect.map((all) =>
            [...all.values()]
              .filter(
                (a) =>
                  a.teamId === teamId &&
                  (filter.enabled === undefined || a.enabled === filter.enabled) &&
                  (filter.manual === undefined || a.manual === filter.manual) &&
                  (filter.type === undefined || a.type === filter.type)
              )
              .toSorted(oldestFirst)
          )
        ),
      find,
      findByExternalId: (teamId, connectionId, externalId) =>
        Ref.get(rows).pipe(
          Effect.map((all) =>
            Option.fromNullishOr(
              [...all.values()].find(
                (a) => a.teamId === teamId && a.connectionId === connectionId && a.externalId === externalId
              )
            )
          )
        ),
      update: (teamId, id, changes) =>
        store.atomically(
          Effect.gen(function* () {
            const all = yield* Ref.get(rows)
            const found = all.get(id)
            if (found === undefined || found.teamId !== teamId) return Option.none()
            const updated = applyChanges(found, changes)
            yield* Ref.set(rows, new Map(all).set(id, updated))
            return Option.some(updated)
          })
        ),
      remove: (teamId, id) =>
        store.atomically(
          Effect.gen(function* () {
            const all = yield* Ref.get(rows)
            if (all.get(id)?.teamId !== teamId) return false
            const next = new Map(all)
            next.delete(id)
            yield* Ref.set(rows, next)
            return true
          })
        )
    })
  })
)

import { CustomersRepo, effectiveStatus, type Invoice, InvoicesRepo, isAfter, newestFirst } from "@svc/domain"
import { Effect, Layer, Option, Ref } from "effect"
import { MemoryStore } from "../../shared/index.ts"

/**
 * InvoicesRepo over the in-memory store; the store's serialised transactions keep each team's counter. Invoices read
 * their customer through its port, so a deleted customer is unlinked as Postgres's foreign key does.
 */
export const InvoicesRepoMemory = Layer.effect(
  InvoicesRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const customers = yield* CustomersRepo
    const rows = yield* store.table<ReadonlyMap<string, Invoice>>(new Map())
    const counters = yield* store.table<ReadonlyMap<string, number>>(new Map())
    const ofTeam = (teamId: string, id: string) => (all: ReadonlyMap<string, Invoice>) =>
      Option.filter(Option.fromNullishOr(all.get(id)), (i) => i.teamId === teamId)
    const numberTaken = (all: ReadonlyMap<string, Invoice>, invoice: Invoice) =>
      [...all.values()].some(
        (i) => i.teamId === invoice.teamId && i.invoiceNumber === invoice.invoiceNumber && i.id !== invoice.id
      )
    const linked = (invoice: Invoice) =>
      invoice.customerId === null
        ? Effect.succeed(invoice)
        : Effect.map(customers.find(invoice.teamId, invoice.customerId), (customer) =>
            Option.isSome(customer) ? invoice : { ...invoice, customerId: null }
          )
    const linkedOne = (found: Option.Option<Invoice>) =>
      Option.isSome(found) ? Effect.map(linked(found.value), Option.some) : Effect.succeed(Option.none<Invoice>())
    const ofTeamAll = (teamId: string) =>
      Ref.get(rows).pipe(
        Effect.flatMap((all) =>
          Effect.forEach(
            [...all.values()].filter((i) => i.teamId === teamId),
            linked
          )
        )
      )
    return InvoicesRepo.of({
      nextNumber: (teamId) =>
        store.atomically(
          Ref.modify(counters, (all) => {
            const next = (all.get(teamId) ?? 0) + 1
            return [next, new Map(all).set(teamId, next)] as const
          })
        ),
      insert: (invoice) =>
        store.atomically(
          Ref.modify(rows, (all) =>
            numberTaken(all, invoice)
              ? ([false, all] as const)
              : ([true, new Map(all).set(invoice.id, invoice)] as const)
          )
        ),
      find: (teamId, id) => Ref.get(rows).pipe(Effect.map(ofTeam(teamId, id)), Effect.flatMap(linkedOne)),
      findById: (id) =>
        Ref.get(rows).pipe(
          Effect.map((all) => Option.fromNullishOr(all.get(id))),
          Effect.flatMap(linkedOne)
        ),
      findByToken: (token) =>
        Ref.get(rows).pipe(
          Effect.map((all) => Option.fromNullishOr([...all.values()].find((i) => i.token === token))),
          Effect.flatMap(linkedOne)
        ),
      list: (teamId, filter, page) =>
        ofTeamAll(teamId).pipe(
          Effect.map((invoices) =>
            invoices
              .filter(
                (i) =>
                  (filter.status === null || effectiveStatus(i, filter.nowIso) === filter.status) &&
                  (filter.customerId === null || i.customerId === filter.customerId) &&
                  isAfter(i, page.after)
              )
              .toSorted(newestFirst)
              .slice(0, page.limit + 1)
          )
        ),
      all: ofTeamAll,
      replace: (invoice, from) =>
        store.atomically(
          Ref.modify(rows, (all) => {
            const current = ofTeam(invoice.teamId, invoice.id)(all)
            if (Option.isNone(current) || current.value.status !== from) return ["stale", all] as const
            if (numberTaken(all, invoice)) return ["number_taken", all] as const
            return ["updated", new Map(all).set(invoice.id, invoice)] as const
          })
        ),
      delete: (teamId, id, from) =>
        store.atomically(
          Ref.modify(rows, (all) => {
            const current = ofTeam(teamId, id)(all)
            if (Option.isNone(current) || current.value.status !== from) return [false, all] as const
            const next = new Map(all)
            next.delete(id)
            return [true, next] as const
          })
        )
    })
  })
)

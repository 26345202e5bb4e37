import {
  type Customer,
  CustomerCountsRepo,
  CustomersRepo,
  InvoicesRepo,
  isAfter,
  newestFirst,
  TagsRepo,
  TrackerRepo
} from "@svc/domain"
import { Effect, Layer, Option, Ref } from "effect"
import { MemoryStore } from "../../shared/index.ts"

/** CustomersRepo over the in-memory store; tags are read through their port, as Postgres joins them. */
export const CustomersRepoMemory = Layer.effect(
  CustomersRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const tags = yield* TagsRepo
    const rows = yield* store.table<ReadonlyMap<string, Customer>>(new Map())
    const ofTeam = (teamId: string, id: string) => (all: ReadonlyMap<string, Customer>) =>
      Option.filter(Option.fromNullishOr(all.get(id)), (c) => c.teamId === teamId)
    const matches = (q: string | null) => (c: Customer) => {
      if (q === null) return true
      const needle = q.toLowerCase()
      return c.name.toLowerCase().includes(needle) || (c.email ?? "").toLowerCase().includes(needle)
    }
    /** The customer with the tags it carries that still exist (a deleted tag drops out, as its link cascades). */
    const withTags = (customer: Customer) =>
      Effect.map(tags.list(customer.teamId), (teamTags) => {
        const carried = teamTags
          .filter((t) => customer.tagIds.includes(t.id))
          .toSorted((a, b) => (a.name === b.name ? a.id.localeCompare(b.id) : a.name.localeCompare(b.name)))
        return { ...customer, tagIds: carried.map((t) => t.id), tags: carried.map((t) => ({ id: t.id, name: t.name })) }
      })
    return CustomersRepo.of({
      insert: (customer) => store.atomically(Ref.update(rows, (all) => new Map(all).set(customer.id, customer))),
      find: (teamId, id) =>
        Ref.get(rows).pipe(
          Effect.map(ofTeam(teamId, id)),
          Effect.flatMap(Option.match({ onNone: () => Effect.succeedNone, onSome: (c) => Effect.asSome(withTags(c)) }))
        ),
      list: (teamId, q, page) =>
        Ref.get(rows).pipe(
          Effect.map((all) =>
            [...all.values()]
              .filter((c) => c.teamId === teamId && matches(q)(c) && isAfter(c, page.after))
              .toSorted(newestFirst)
              .slice(0, page.limit + 1)
          ),
          Effect.flatMap(Effect.forEach(withTags))
        ),
      update: (customer) =>
        store.atomically(
          Ref.modify(rows, (all) =>
            Option.isNone(ofTeam(customer.teamId, customer.id)(all))
              ? ([false, all] as const)
              : ([true, new Map(all).set(customer.id, customer)] as const)
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

/** CustomerCountsRepo over the in-memory store: the team's invoices and projects, read through their ports. */
export const CustomerCountsRepoMemory = Layer.effect(
  CustomerCountsRepo,
  Effect.gen(function* () {
    const invoices = yield* InvoicesRepo
    const tracker = yield* TrackerRepo
    return CustomerCountsRepo.of({
      counts: (teamId, ids) =>
        Effect.gen(function* () {
          const teamInvoices = yield* invoices.all(teamId)
          const projects = yield* tracker.listProjects(teamId, {
            after: Option.none(),
            limit: Number.MAX_SAFE_INTEGER - 1
          })
          return new Map(
            ids.map((id) => [
              id,
              {
                invoiceCount: teamInvoices.filter((i) => i.customerId === id).length,
                projectCount: projects.filter((p) => p.customerId === id).length
              }
            ])
          )
        })
    })
  })
)

import { type Customer, CustomersRepo, isAfter, newestFirst } from "@svc/domain"
import { Effect, Layer, Option, Ref } from "effect"
import { MemoryStore } from "../../shared/index.ts"

/** CustomersRepo over the in-memory store. */
export const CustomersRepoMemory = Layer.effect(
  CustomersRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const rows = yield* store.table<ReadonlyMap<string, Customer>>(new Map())
    const ofTeam = (teamId: string, id: string) => (all: ReadonlyMap<string, Customer>) =>
      Option.filter(Option.fromNullishOr(all.get(id)), (c) => c.teamId === teamId)
    const matches = (q: string | null) => (c: Customer) => {
      if (q === null) return true
      const needle = q.toLowerCase()
      return c.name.toLowerCase().includes(needle) || (c.email ?? "").toLowerCase().includes(needle)
    }
    return CustomersRepo.of({
      insert: (customer) => store.atomically(Ref.update(rows, (all) => new Map(all).set(customer.id, customer))),
      find: (teamId, id) => Ref.get(rows).pipe(Effect.map(ofTeam(teamId, id))),
      list: (teamId, q, page) =>
        Ref.get(rows).pipe(
          Effect.map((all) =>
            [...all.values()]
              .filter((c) => c.teamId === teamId && matches(q)(c) && isAfter(c, page.after))
              .toSorted(newestFirst)
              .slice(0, page.limit + 1)
          )
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

import { Context, Effect, Layer, Option, Schema } from "effect"
import { newIdText, nowIso } from "../../shared/index.ts"
import type { PageRequest, PersistenceUnavailable, TeamId } from "../../shared/model.ts"
import { CUSTOMER_FIELDS, type Customer } from "./Customer.ts"

/** The team has no customer with that id. */
export class CustomerNotFound extends Schema.TaggedError<CustomerNotFound>()("CustomerNotFound", {
  id: Schema.String
}) {}

/** What a client gives to create a customer: the name, and any of the optional fields. */
export type CustomerInput = { readonly name: string } & {
  readonly [K in Exclude<(typeof CUSTOMER_FIELDS)[number], "name">]?: string | null | undefined
}

/** A change to a customer: each field given replaces the stored one (null clears an optional field). */
export type CustomerPatch = Partial<CustomerInput>

/** Storage of customers, per team. */
export class CustomersRepo extends Context.Service<
  CustomersRepo,
  {
    readonly insert: (customer: Customer) => Effect.Effect<void, PersistenceUnavailable>
    readonly find: (teamId: TeamId, id: string) => Effect.Effect<Option.Option<Customer>, PersistenceUnavailable>
    /** The team's customers newest first, up to `page.limit + 1`; with `q`, those whose name or e-mail contains it. */
    readonly list: (
      teamId: TeamId,
      q: string | null,
      page: PageRequest
    ) => Effect.Effect<ReadonlyArray<Customer>, PersistenceUnavailable>
    /** Replaces a stored customer; false when the team has none with its id. */
    readonly update: (customer: Customer) => Effect.Effect<boolean, PersistenceUnavailable>
    /** Deletes a customer; false when the team has none with that id. */
    readonly delete: (teamId: TeamId, id: string) => Effect.Effect<boolean, PersistenceUnavailable>
  }
>()("@svc/domain/CustomersRepo") {}

const optionalFields = (input: Partial<CustomerInput>, base: Customer | null) =>
  Object.fromEntries(
    CUSTOMER_FIELDS.filter((field) => field !== "name").map((field) => {
      const given = input[field]
      return [field, given === undefined ? (base === null ? null : base[field]) : given]
    })
  ) as Pick<Customer, Exclude<(typeof CUSTOMER_FIELDS)[number], "name">>

/** A team's customers. */
export class Customers extends Context.Service<
  Customers,
  {
    readonly create: (teamId: TeamId, input: CustomerInput) => Effect.Effect<Customer, PersistenceUnavailable>
    readonly get: (teamId: TeamId, id: string) => Effect.Effect<Customer, CustomerNotFound | PersistenceUnavailable>
    readonly list: (
      teamId: TeamId,
      q: string | null,
      page: PageRequest
    ) => Effect.Effect<ReadonlyArray<Customer>, PersistenceUnavailable>
    readonly update: (
      teamId: TeamId,
      id: string,
      patch: CustomerPatch
    ) => Effect.Effect<Customer, CustomerNotFound | PersistenceUnavailable>
    readonly remove: (teamId: TeamId, id: string) => Effect.Effect<Customer, CustomerNotFound | PersistenceUnavailable>
  }
>()("@svc/domain/Customers") {
  static readonly make = Effect.gen(function* () {
    const repo = yield* CustomersRepo

    const get = Effect.fn("Customers.get")(function* (teamId: TeamId, id: string) {
      const found = yield* repo.find(teamId, id)
      if (Option.isNone(found)) return yield* new CustomerNotFound({ id })
      return found.value
    })

    const create = Effect.fn("Customers.create")(function* (teamId: TeamId, input: CustomerInput) {
      const now = yield* nowIso
      const customer: Customer = {
        id: yield* newIdText,
        teamId,
        name: input.name,
        ...optionalFields(input, null),
        createdAt: now,
        updatedAt: now
      }
      yield* repo.insert(customer)
      return customer
    })

    const update = Effect.fn("Customers.update")(function* (teamId: TeamId, id: string, patch: CustomerPatch) {
      const current = yield* get(teamId, id)
      const next: Customer = {
        ...current,
        name: patch.name ?? current.name,
        ...optionalFields(patch, current),
        updatedAt: yield* nowIso
      }
      if (!(yield* repo.update(next))) return yield* new CustomerNotFound({ id })
      return next
    })

    const remove = Effect.fn("Customers.remove")(function* (teamId: TeamId, id: string) {
      const current = yield* get(teamId, id)
      if (!(yield* repo.delete(teamId, id))) return yield* new CustomerNotFound({ id })
      return current
    })

    return Customers.of({
      create,
      get,
      list: Effect.fn("Customers.list")((teamId: TeamId, q: string | null, page: PageRequest) =>
        repo.list(teamId, q, page)
      ),
      update,
      remove
    })
  })
  static readonly layer = Layer.effect(Customers, Customers.make)
}

import { Context, Effect, Layer, Option, Schema } from "effect"
import { newIdText, nowIso } from "../../shared/index.ts"
import type { PageRequest, PersistenceUnavailable, TeamId } from "../../shared/model.ts"
import { Tags } from "../tags/index.ts"
import { type TagId, TagNotFound } from "../tags/model.ts"
import {
  CUSTOMER_FIELDS,
  type Customer,
  type CustomerCounts,
  type CustomerDetails,
  type CustomerWithTags,
  NO_COUNTS
} from "./Customer.ts"

/** The team has no customer with that id. */
export class CustomerNotFound extends Schema.TaggedError<CustomerNotFound>()("CustomerNotFound", {
  id: Schema.String
}) {}

/** What a client gives to create a customer: the name, any of the optional fields, and the team's tags it carries. */
export type CustomerInput = { readonly name: string } & {
  readonly [K in Exclude<(typeof CUSTOMER_FIELDS)[number], "name">]?: string | null | undefined
} & { readonly tagIds?: ReadonlyArray<string> | undefined }

/** A change to a customer: each field given replaces the stored one (null clears an optional field; tags replace). */
export type CustomerPatch = Partial<CustomerInput>

/** Storage of customers and their tags, per team. */
export class CustomersRepo extends Context.Service<
  CustomersRepo,
  {
    /** Inserts the customer with its tags (the caller checked they are the team's). */
    readonly insert: (customer: Customer) => Effect.Effect<void, PersistenceUnavailable>
    readonly find: (
      teamId: TeamId,
      id: string
    ) => Effect.Effect<Option.Option<CustomerWithTags>, PersistenceUnavailable>
    /** The team's customers newest first, up to `page.limit + 1`; with `q`, those whose name or e-mail contains it. */
    readonly list: (
      teamId: TeamId,
      q: string | null,
      page: PageRequest
    ) => Effect.Effect<ReadonlyArray<CustomerWithTags>, PersistenceUnavailable>
    /** Replaces a stored customer and its tags; false when the team has none with its id. */
    readonly update: (customer: Customer) => Effect.Effect<boolean, PersistenceUnavailable>
    /** Deletes a customer; false when the team has none with that id. */
    readonly delete: (teamId: TeamId, id: string) => Effect.Effect<boolean, PersistenceUnavailable>
  }
>()("@svc/domain/CustomersRepo") {}

/** How many invoices and tracker projects name each of a page of customers: one aggregated read, never one per row. */
export class CustomerCountsRepo extends Context.Service<
  CustomerCountsRepo,
  {
    /** The counts of the customers among `ids` that any invoice or project names; the others have none. */
    readonly counts: (
      teamId: TeamId,
      ids: ReadonlyArray<string>
    ) => Effect.Effect<ReadonlyMap<string, CustomerCounts>, PersistenceUnavailable>
  }
>()("@svc/domain/CustomerCountsRepo") {}

const optionalFields = (input: Partial<CustomerInput>, base: Customer | null) =>
  Object.fromEntries(
    CUSTOMER_FIELDS.filter((field) => field !== "name").map((field) => {
      const given = input[field]
      return [field, given === undefined ? (base === null ? null : base[field]) : given]
    })
  ) as Pick<Customer, Exclude<(typeof CUSTOMER_FIELDS)[number], "name">>

type Failure = PersistenceUnavailable

/** A team's customers. */
export class Customers extends Context.Service<
  Customers,
  {
    /** Refused with TagNotFound naming `tags[i].id` when a tag is not the team's. */
    readonly create: (teamId: TeamId, input: CustomerInput) => Effect.Effect<CustomerDetails, TagNotFound | Failure>
    readonly get: (teamId: TeamId, id: string) => Effect.Effect<CustomerDetails, CustomerNotFound | Failure>
    readonly list: (
      teamId: TeamId,
      q: string | null,
      page: PageRequest
    ) => Effect.Effect<ReadonlyArray<CustomerDetails>, Failure>
    readonly update: (
      teamId: TeamId,
      id: string,
      patch: CustomerPatch
    ) => Effect.Effect<CustomerDetails, CustomerNotFound | TagNotFound | Failure>
    readonly remove: (teamId: TeamId, id: string) => Effect.Effect<CustomerDetails, CustomerNotFound | Failure>
  }
>()("@svc/domain/Customers") {
  static readonly make = Effect.gen(function* () {
    const repo = yield* CustomersRepo
    const countsRepo = yield* CustomerCountsRepo
    const tags = yield* Tags

    const withCounts = Effect.fn("Customers.withCounts")(function* (
      teamId: TeamId,
      customers: ReadonlyArray<CustomerWithTags>
    ) {
      if (customers.length === 0) return []
      const counts = yield* countsRepo.counts(
        teamId,
        customers.map((c) => c.id)
      )
      return customers.map((c): CustomerDetails => ({ ...c, ...(counts.get(c.id) ?? NO_COUNTS) }))
    })

    const get = Effect.fn("Customers.get")(function* (teamId: TeamId, id: string) {
      const found = yield* repo.find(teamId, id)
      if (Option.isNone(found)) return yield* new CustomerNotFound({ id })
      const [details] = yield* withCounts(teamId, [found.value])
      return details as CustomerDetails
    })

    /** The tags a create or update gives, deduplicated and checked as the team's (the field names the index). */
    const tagIdsOf = Effect.fn("Customers.tagIdsOf")(function* (
      teamId: TeamId,
      given: ReadonlyArray<string> | undefined,
      current: Customer | null
    ) {
      if (given === undefined) return current?.tagIds ?? []
      yield* tags
        .requireAll(teamId, given as ReadonlyArray<TagId>, "tags")
        .pipe(
          Effect.catchTag("TagNotFound", (e) =>
            Effect.fail(new TagNotFound({ tagId: e.tagId, field: `tags[${given.indexOf(e.tagId)}].id` }))
          )
        )
      return [...new Set(given)]
    })

    const create = Effect.fn("Customers.create")(function* (teamId: TeamId, input: CustomerInput) {
      const now = yield* nowIso
      const customer: Customer = {
        id: yield* newIdText,
        teamId,
        name: input.name,
        ...optionalFields(input, null),
        tagIds: yield* tagIdsOf(teamId, input.tagIds, null),
        createdAt: now,
        updatedAt: now
      }
      yield* repo.insert(customer)
      return yield* get(teamId, customer.id).pipe(Effect.orDie)
    })

    const update = Effect.fn("Customers.update")(function* (teamId: TeamId, id: string, patch: CustomerPatch) {
      const current = yield* get(teamId, id)
      const next: Customer = {
        id: current.id,
        teamId: current.teamId,
        name: patch.name ?? current.name,
        ...optionalFields(patch, current),
        tagIds: yield* tagIdsOf(teamId, patch.tagIds, current),
        createdAt: current.createdAt,
        updatedAt: yield* nowIso
      }
      if (!(yield* repo.update(next))) return yield* new CustomerNotFound({ id })
      return yield* get(teamId, id)
    })

    const remove = Effect.fn("Customers.remove")(function* (teamId: TeamId, id: string) {
      const current = yield* get(teamId, id)
      if (!(yield* repo.delete(teamId, id))) return yield* new CustomerNotFound({ id })
      return current
    })

    return Customers.of({
      create,
      get,
      list: Effect.fn("Customers.list")(function* (teamId: TeamId, q: string | null, page: PageRequest) {
        return yield* withCounts(teamId, yield* repo.list(teamId, q, page))
      }),
      update,
      remove
    })
  })
  static readonly layer = Layer.effect(Customers, Customers.make)
}

import { type CustomerInput, Customers, customerView, type TagNotFound, toPage } from "@svc/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../../api/Api.ts"
import { notFound } from "../../../api/shared/index.ts"
import { listPaging, missingResource, orServiceUnavailable, principalTeam } from "../../shared/index.ts"

/** A create or update body as the domain takes it: the twin's `tags` objects name tags by id. */
const customerInput = <P extends { readonly tags?: ReadonlyArray<{ readonly id: string }> }>({ tags, ...rest }: P) => ({
  ...rest,
  ...(tags === undefined ? {} : { tagIds: tags.map((t) => t.id) })
})

const tagMissing = (e: TagNotFound) => Effect.fail(missingResource("tag", e.tagId, e.field))

export const CustomersHttp = HttpApiBuilder.group(Api, "customers", (handlers) =>
  Effect.gen(function* () {
    const { pageOf, signedPage } = yield* listPaging
    const customers = yield* Customers
    const missing = (id: string) => () => Effect.fail(notFound(`no customer ${id}`))
    return handlers
      .handle("list", ({ query }) =>
        Effect.gen(function* () {
          const { teamId } = yield* principalTeam
          const q = query.q ?? null
          const scope = `customers:${teamId}:${q ?? ""}`
          const page = yield* pageOf(scope, query)
          return yield* signedPage(scope, toPage(page, yield* customers.list(teamId, q, page), customerView))
        }).pipe(orServiceUnavailable)
      )
      .handle("create", ({ payload }) =>
        Effect.gen(function* () {
          const { teamId } = yield* principalTeam
          return customerView(yield* customers.create(teamId, customerInput(payload) as CustomerInput))
        }).pipe(Effect.catchTag("TagNotFound", tagMissing), orServiceUnavailable)
      )
      .handle("get", ({ params }) =>
        Effect.gen(function* () {
          const { teamId } = yield* principalTeam
          return customerView(yield* customers.get(teamId, params.id))
        }).pipe(Effect.catchTag("CustomerNotFound", missing(params.id)), orServiceUnavailable)
      )
      .handle("update", ({ params, payload }) =>
        Effect.gen(function* () {
          const { teamId } = yield* principalTeam
          return customerView(yield* customers.update(teamId, params.id, customerInput(payload)))
        }).pipe(
          Effect.catchTags({ CustomerNotFound: missing(params.id), TagNotFound: tagMissing }),
          orServiceUnavailable
        )
      )
      .handle("delete", ({ params }) =>
        Effect.gen(function* () {
          const { teamId } = yield* principalTeam
          const removed = yield* customers.remove(teamId, params.id)
          return { id: removed.id, object: "customer" as const, deleted: true as const }
        }).pipe(Effect.catchTag("CustomerNotFound", missing(params.id)), orServiceUnavailable)
      )
  })
)

import { Customers, customerView, toPage } from "@svc/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../../api/Api.ts"
import { notFound } from "../../../api/shared/index.ts"
import { listPaging, orServiceUnavailable, principalTeam } from "../../shared/index.ts"

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
          return customerView(yield* customers.create(teamId, payload))
        }).pipe(orServiceUnavailable)
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
          return customerView(yield* customers.update(teamId, params.id, payload))
        }).pipe(Effect.catchTag("CustomerNotFound", missing(params.id)), orServiceUnavailable)
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

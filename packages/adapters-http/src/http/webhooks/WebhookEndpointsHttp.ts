import { Teams, toPage, WebhookEndpoints, webhookDeliveryView, webhookEndpointView } from "@svc/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../api/Api.ts"
import { badRequest, notFound } from "../../api/shared/index.ts"
import { currentTeamAsAdmin as adminTeamOf, listPaging, orServiceUnavailable } from "../shared/index.ts"

export const WebhookEndpointsHttp = HttpApiBuilder.group(Api, "webhookEndpoints", (handlers) =>
  Effect.gen(function* () {
    const { pageOf, signedPage } = yield* listPaging
    const endpoints = yield* WebhookEndpoints
    const currentTeamAsAdmin = adminTeamOf(yield* Teams)
    const missing = (id: string) => () => Effect.fail(notFound(`no webhook endpoint ${id}`))
    const invalid = (e: { readonly field: string; readonly message: string }) =>
      Effect.fail(
        badRequest("validation_failed", `invalid request: ${e.field}: ${e.message}`, [
          { path: e.field, message: e.message }
        ])
      )

    return handlers
      .handle("create", ({ payload }) =>
        Effect.gen(function* () {
          const { team } = yield* currentTeamAsAdmin
          const { endpoint, secret } = yield* endpoints.register(team.id, payload)
          return { ...webhookEndpointView(endpoint), secret }
        }).pipe(Effect.catchTag("InvalidWebhookEndpoint", invalid), orServiceUnavailable)
      )
      .handle("list", ({ query }) =>
        Effect.gen(function* () {
          const { team } = yield* currentTeamAsAdmin
          const scope = `webhook-endpoints:${team.id}`
          const page = yield* pageOf(scope, query)
          return yield* signedPage(scope, toPage(page, yield* endpoints.list(team.id, page), webhookEndpointView))
        }).pipe(orServiceUnavailable)
      )
      .handle("get", ({ params }) =>
        Effect.gen(function* () {
          const { team } = yield* currentTeamAsAdmin
          return webhookEndpointView(yield* endpoints.get(team.id, params.id))
        }).pipe(Effect.catchTag("WebhookEndpointNotFound", missing(params.id)), orServiceUnavailable)
      )
      .handle("update", ({ params, payload }) =>
        Effect.gen(function* () {
          const { team } = yield* currentTeamAsAdmin
          return webhookEndpointView(yield* endpoints.update(team.id, params.id, payload))
        }).pipe(
          Effect.catchTags({ WebhookEndpointNotFound: missing(params.id), InvalidWebhookEndpoint: invalid }),
          orServiceUnavailable
        )
      )
      .handle("disable", ({ params }) =>
        Effect.gen(function* () {
          const { team } = yield* currentTeamAsAdmin
          return webhookEndpointView(yield* endpoints.disable(team.id, params.id, "disabled_by_user"))
        }).pipe(Effect.catchTag("WebhookEndpointNotFound", missing(params.id)), orServiceUnavailable)
      )
      .handle("rotateSecret", ({ params }) =>
        Effect.gen(function* () {
          const { team } = yield* currentTeamAsAdmin
          const { endpoint, secret } = yield* endpoints.rotateSecret(team.id, params.id)
          return { ...webhookEndpointView(endpoint), secret }
        }).pipe(Effect.catchTag("WebhookEndpointNotFound", missing(params.id)), orServiceUnavailable)
      )
      .handle("deliveries", ({ params, query }) =>
        Effect.gen(function* () {
          const { team } = yield* currentTeamAsAdmin
          const scope = `webhook-deliveries:${team.id}:${params.id}`
          const page = yield* pageOf(scope, query)
          const rows = yield* endpoints.deliveries(team.id, params.id, page)
          return yield* signedPage(scope, toPage(page, rows, webhookDeliveryView))
        }).pipe(Effect.catchTag("WebhookEndpointNotFound", missing(params.id)), orServiceUnavailable)
      )
      .handle("redeliver", ({ params }) =>
        Effect.gen(function* () {
          const { team } = yield* currentTeamAsAdmin
          return webhookDeliveryView(yield* endpoints.redeliver(team.id, params.id, params.deliveryId))
        }).pipe(
          Effect.catchTags({
            WebhookEndpointNotFound: missing(params.id),
            WebhookDeliveryNotFound: () => Effect.fail(notFound(`no delivery ${params.deliveryId}`))
          }),
          orServiceUnavailable
        )
      )
  })
)

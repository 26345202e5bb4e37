import {
  checkEventTypes,
  checkWebhookUrl,
  WebhookDeliveryView,
  WebhookEndpointView,
  WebhookEvent
} from "@svc/domain/model"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import {
  CommonErrors,
  Forbidden,
  ListOf,
  ListQuery,
  NotFound,
  SessionAuth,
  UuidParam,
  WithSecret
} from "../shared/index.ts"

/** The URL's form; the service then applies the destination policy it is configured with. */
const Url = Schema.String.check(
  Schema.makeFilter((url: string) => checkWebhookUrl(url, { allowPrivateDestinations: true }) ?? true)
)

const EventTypes = Schema.Array(Schema.String).check(
  Schema.makeFilter((types: ReadonlyArray<string>) => checkEventTypes(types) ?? true)
)

/** A webhook endpoint as listed: never its secret. */
export const WebhookEndpointResponse = WebhookEndpointView

/** The body the service POSTs to an endpoint: a union on `type` whose `data` is the view of the event's resource. */
export const WebhookEventBody = WebhookEvent

/** One delivery of an event to an endpoint. */
export const WebhookDeliveryResponse = WebhookDeliveryView

const EndpointWithSecret = WithSecret(WebhookEndpointResponse)
const errors = [...CommonErrors, Forbidden] as const
const id = { id: UuidParam }

/** Outbound webhook endpoints of the session's team (owners and admins). */
export class WebhookEndpointsApi extends HttpApiGroup.make("webhookEndpoints")
  .add(
    HttpApiEndpoint.post("create", "/treasury/webhook-endpoints", {
      payload: Schema.Struct({ url: Url, eventTypes: EventTypes }),
      success: EndpointWithSecret.pipe(HttpApiSchema.status(201)),
      error: errors
    })
      .annotate(OpenApi.Summary, "Create a webhook endpoint")
      .annotate(
        OpenApi.Description,
        "Registers an endpoint (https to a public host: never `localhost` nor a loopback, private, link-local or other " +
          "non-public IP literal) for event types such as `spend_request.approved` " +
          "(`*` for all). Deliveries are signed with Standard Webhooks headers using the `whsec_` secret returned " +
          "here once, retried with exponential backoff and jitter for about 3 days."
      ),
    HttpApiEndpoint.get("list", "/treasury/webhook-endpoints", {
      query: ListQuery,
      success: ListOf(WebhookEndpointResponse),
      error: errors
    })
      .annotate(OpenApi.Summary, "List webhook endpoints")
      .annotate(OpenApi.Description, "The team's webhook endpoints, newest first (never their secrets)."),
    HttpApiEndpoint.get("get", "/treasury/webhook-endpoints/:id", {
      params: id,
      success: WebhookEndpointResponse,
      error: [...errors, NotFound]
    }).annotate(OpenApi.Summary, "Get a webhook endpoint"),
    HttpApiEndpoint.patch("update", "/treasury/webhook-endpoints/:id", {
      params: id,
      payload: Schema.Struct({
        url: Schema.optionalKey(Url),
        eventTypes: Schema.optionalKey(EventTypes),
        enabled: Schema.optionalKey(Schema.Boolean)
      }),
      success: WebhookEndpointResponse,
      error: [...errors, NotFound]
    })
      .annotate(OpenApi.Summary, "Update a webhook endpoint")
      .annotate(OpenApi.Description, "Changes the URL, the event types, or enables/disables the endpoint."),
    HttpApiEndpoint.delete("disable", "/treasury/webhook-endpoints/:id", {
      params: id,
      success: WebhookEndpointResponse,
      error: [...errors, NotFound]
    })
      .annotate(OpenApi.Summary, "Disable a webhook endpoint")
      .annotate(OpenApi.Description, "Disables the endpoint: no more deliveries (its log stays readable)."),
    HttpApiEndpoint.post("rotateSecret", "/treasury/webhook-endpoints/:id/rotate-secret", {
      params: id,
      success: EndpointWithSecret,
      error: [...errors, NotFound]
    })
      .annotate(OpenApi.Summary, "Rotate a webhook endpoint's secret")
      .annotate(
        OpenApi.Description,
        "Issues a new secret (returned once). For 24 hours deliveries carry signatures with both the old and new secret."
      ),
    HttpApiEndpoint.get("deliveries", "/treasury/webhook-endpoints/:id/deliveries", {
      params: id,
      query: ListQuery,
      success: ListOf(WebhookDeliveryResponse),
      error: [...errors, NotFound]
    })
      .annotate(OpenApi.Summary, "List an endpoint's deliveries")
      .annotate(OpenApi.Description, "The endpoint's delivery log, newest first."),
    HttpApiEndpoint.post("redeliver", "/treasury/webhook-endpoints/:id/deliveries/:deliveryId/redeliver", {
      params: { id: UuidParam, deliveryId: UuidParam },
      success: WebhookDeliveryResponse.pipe(HttpApiSchema.status(202)),
      error: [...errors, NotFound]
    })
      .annotate(OpenApi.Summary, "Redeliver an event")
      .annotate(
        OpenApi.Description,
        "Queues the delivery's event again (same body and `webhook-id`) as a new delivery."
      )
  )
  .middleware(SessionAuth) {}

import { Schema, Struct } from "effect"
import { TeamId } from "../shared/model.ts"

/** A team's registered receiver of outbound events. Its signing secret is derived, never stored (see `endpointSecret`). */
export const WebhookEndpoint = Schema.Struct({
  id: Schema.String,
  teamId: TeamId,
  url: Schema.String,
  eventTypes: Schema.Array(Schema.String),
  enabled: Schema.Boolean,
  disabledReason: Schema.NullOr(Schema.String),
  secretSalt: Schema.String,
  previousSecretSalt: Schema.NullOr(Schema.String),
  previousSecretExpiresAt: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  updatedAt: Schema.String
})
export type WebhookEndpoint = typeof WebhookEndpoint.Type

/** Where one delivery of an event to an endpoint stands. */
export const WebhookDeliveryStatus = Schema.Literals(["pending", "succeeded", "failed"])
export type WebhookDeliveryStatus = typeof WebhookDeliveryStatus.Type

/** One event sent (or to be sent) to one endpoint; the body is fixed when the delivery is created. */
export const WebhookDelivery = Schema.Struct({
  id: Schema.String,
  teamId: TeamId,
  endpointId: Schema.String,
  eventId: Schema.String,
  eventType: Schema.String,
  body: Schema.String,
  status: WebhookDeliveryStatus,
  attempts: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
  nextAttemptAt: Schema.String,
  lastStatusCode: Schema.NullOr(Schema.Int),
  lastError: Schema.NullOr(Schema.String),
  redeliveryOf: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  updatedAt: Schema.String,
  deliveredAt: Schema.NullOr(Schema.String)
})
export type WebhookDelivery = typeof WebhookDelivery.Type

/** A webhook endpoint as its team sees it: never its secret. */
export const WebhookEndpointView = Schema.Struct({
  id: WebhookEndpoint.fields.id,
  object: Schema.Literal("webhook_endpoint"),
  ...Struct.omit(WebhookEndpoint.fields, [
    "id",
    "teamId",
    "secretSalt",
    "previousSecretSalt",
    "previousSecretExpiresAt"
  ])
})
export type WebhookEndpointView = typeof WebhookEndpointView.Type

/** The outbound event of an endpoint's change: disabled by its team or after a 410; it carries `WebhookEndpointView`. */
export const WebhookEndpointEventType = Schema.Literal("webhook_endpoint.disabled")
export type WebhookEndpointEventType = typeof WebhookEndpointEventType.Type

/** The view of a webhook endpoint. */
export const webhookEndpointView = (endpoint: WebhookEndpoint): WebhookEndpointView => ({
  id: endpoint.id,
  object: "webhook_endpoint",
  url: endpoint.url,
  eventTypes: endpoint.eventTypes,
  enabled: endpoint.enabled,
  disabledReason: endpoint.disabledReason,
  createdAt: endpoint.createdAt,
  updatedAt: endpoint.updatedAt
})

/** One delivery of an event to an endpoint as its team sees it: the next attempt only while one is due. */
export const WebhookDeliveryView = Schema.Struct({
  id: Schema.String,
  object: Schema.Literal("webhook_delivery"),
  endpointId: Schema.String,
  eventId: Schema.String,
  eventType: Schema.String,
  status: WebhookDeliveryStatus,
  attempts: Schema.Int,
  nextAttemptAt: Schema.NullOr(Schema.String),
  lastStatusCode: Schema.NullOr(Schema.Int),
  lastError: Schema.NullOr(Schema.String),
  redeliveryOf: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  deliveredAt: Schema.NullOr(Schema.String)
})
export type WebhookDeliveryView = typeof WebhookDeliveryView.Type

/** The view of a delivery. */
export const webhookDeliveryView = (delivery: WebhookDelivery): WebhookDeliveryView => ({
  id: delivery.id,
  object: "webhook_delivery",
  endpointId: delivery.endpointId,
  eventId: delivery.eventId,
  eventType: delivery.eventType,
  status: delivery.status,
  attempts: delivery.attempts,
  nextAttemptAt: delivery.status === "pending" ? delivery.nextAttemptAt : null,
  lastStatusCode: delivery.lastStatusCode,
  lastError: delivery.lastError,
  redeliveryOf: delivery.redeliveryOf,
  createdAt: delivery.createdAt,
  deliveredAt: delivery.deliveredAt
})

/** The result of an attempt, written back to the delivery. */
export interface DeliveryAttemptResult {
  readonly status: WebhookDeliveryStatus
  readonly attempts: number
  readonly nextAttemptAt: string
  readonly lastStatusCode: number | null
  readonly lastError: string | null
  readonly deliveredAt: string | null
  readonly updatedAt: string
}

/** No such webhook endpoint in this team. */
export class WebhookEndpointNotFound extends Schema.TaggedError<WebhookEndpointNotFound>()("WebhookEndpointNotFound", {
  endpointId: Schema.String
}) {}

/** No such delivery for this endpoint. */
export class WebhookDeliveryNotFound extends Schema.TaggedError<WebhookDeliveryNotFound>()("WebhookDeliveryNotFound", {
  deliveryId: Schema.String
}) {}

/** An endpoint URL or event type list that cannot be accepted. */
export class InvalidWebhookEndpoint extends Schema.TaggedError<InvalidWebhookEndpoint>()("InvalidWebhookEndpoint", {
  field: Schema.String,
  message: Schema.String
}) {}

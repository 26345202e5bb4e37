import { Schema } from "effect"
import type { TeamId } from "../shared/model.ts"

/** A team's registered receiver of outbound events. Its signing secret is derived, never stored (see `endpointSecret`). */
export interface WebhookEndpoint {
  readonly id: string
  readonly teamId: TeamId
  readonly url: string
  readonly eventTypes: ReadonlyArray<string>
  readonly enabled: boolean
  readonly disabledReason: string | null
  readonly secretSalt: string
  readonly previousSecretSalt: string | null
  readonly previousSecretExpiresAt: string | null
  readonly createdAt: string
  readonly updatedAt: string
}

/** Where one delivery of an event to an endpoint stands. */
export const WebhookDeliveryStatus = Schema.Literals(["pending", "succeeded", "failed"])
export type WebhookDeliveryStatus = typeof WebhookDeliveryStatus.Type

/** One event sent (or to be sent) to one endpoint; the body is fixed when the delivery is created. */
export interface WebhookDelivery {
  readonly id: string
  readonly teamId: TeamId
  readonly endpointId: string
  readonly eventId: string
  readonly eventType: string
  readonly body: string
  readonly status: WebhookDeliveryStatus
  readonly attempts: number
  readonly nextAttemptAt: string
  readonly lastStatusCode: number | null
  readonly lastError: string | null
  readonly redeliveryOf: string | null
  readonly createdAt: string
  readonly updatedAt: string
  readonly deliveredAt: string | null
}

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

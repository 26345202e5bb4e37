import { Schema } from "effect"

export const WebhookSignatureReason = Schema.Literals([
  "missing_signature",
  "invalid_signature",
  "stale_timestamp",
  "malformed_header",
  "forbidden_ip",
  "secret_not_configured"
])
export type WebhookSignatureReason = typeof WebhookSignatureReason.Type

/** An inbound webhook request was not proven to come from the provider. */
export class WebhookSignatureError extends Schema.TaggedError<WebhookSignatureError>()("WebhookSignatureError", {
  reason: WebhookSignatureReason
}) {}

/** An inbound webhook body is not the JSON envelope `{id, type, ...}` the endpoint requires. */
export class WebhookPayloadError extends Schema.TaggedError<WebhookPayloadError>()("WebhookPayloadError", {
  reason: Schema.Literal("invalid_payload"),
  message: Schema.String
}) {}

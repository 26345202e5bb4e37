import { createHmac } from "node:crypto"
import { type OutboundWebhook, type ReceiverResponse, WebhookSender, type WebhookSendFailed } from "@svc/domain"
import { Clock, Effect, Layer } from "effect"
import { destinationPost } from "./DestinationPost.ts"

/** The Standard Webhooks signature header: `v1,<base64 HMAC-SHA256 of id.timestamp.body>` per secret, space-separated. */
export const standardWebhooksSignature = (
  secrets: ReadonlyArray<string>,
  id: string,
  timestampSeconds: number,
  body: string
): string =>
  secrets
    .map((secret) => {
      const key = Buffer.from(secret.startsWith("whsec_") ? secret.slice(6) : secret, "base64")
      return `v1,${createHmac("sha256", key).update(`${id}.${timestampSeconds}.${body}`).digest("base64")}`
    })
    .join(" ")

/** Reads `Retry-After` as seconds (a number of seconds or an HTTP date). */
export const retryAfterSeconds = (value: string | null, nowMs: number): number | null => {
  if (value === null) return null
  if (/^\d+$/u.test(value.trim())) return Number(value.trim())
  const at = Date.parse(value)
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - nowMs) / 1000))
}

/**
 * WebhookSender over `destinationPost`: signs with Standard Webhooks and POSTs JSON to a destination the
 * `WebhookDestinations` policy allows (the host resolved once, refused when any of its addresses is not public, then
 * connected to at the checked addresses only). Redirects are answers, not followed; the response body is never read.
 */
export const StandardWebhooksSender = Layer.effect(
  WebhookSender,
  Effect.gen(function* () {
    const postTo = yield* destinationPost

    const send = (webhook: OutboundWebhook): Effect.Effect<ReceiverResponse, WebhookSendFailed> =>
      Effect.gen(function* () {
        const response = yield* postTo({
          url: webhook.url,
          headers: {
            "user-agent": "svc-webhooks/1",
            "webhook-id": webhook.webhookId,
            "webhook-timestamp": String(webhook.timestampSeconds),
            "webhook-signature": standardWebhooksSignature(
              webhook.secrets,
              webhook.webhookId,
              webhook.timestampSeconds,
              webhook.body
            )
          },
          body: webhook.body,
          timeoutMs: webhook.timeoutMs
        })
        const retryAfter = response.headers["retry-after"]
        return {
          status: response.status,
          retryAfterSeconds: retryAfterSeconds(retryAfter ?? null, yield* Clock.currentTimeMillis)
        }
      }).pipe(Effect.withSpan("WebhookSender.send"))

    return WebhookSender.of({ send })
  })
)

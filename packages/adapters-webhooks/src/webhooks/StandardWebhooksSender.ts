import { createHmac } from "node:crypto"
import { WebhookSender, WebhookSendFailed } from "@svc/domain"
import { Clock, Effect, Layer } from "effect"

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

/** WebhookSender over fetch: signs with Standard Webhooks, POSTs JSON, aborts after the timeout. */
export const StandardWebhooksSender = Layer.succeed(
  WebhookSender,
  WebhookSender.of({
    send: (webhook) =>
      Effect.flatMap(Clock.currentTimeMillis, (nowMs) =>
        Effect.tryPromise({
          try: async (interrupted) => {
            const response = await fetch(webhook.url, {
              method: "POST",
              redirect: "manual",
              signal: AbortSignal.any([interrupted, AbortSignal.timeout(webhook.timeoutMs)]),
              headers: {
                "content-type": "application/json",
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
              body: webhook.body
            })
            await response.body?.cancel().catch(() => undefined)
            return {
              status: response.status,
              retryAfterSeconds: retryAfterSeconds(response.headers.get("retry-after"), nowMs)
            }
          },
          catch: (cause) => {
            const name = cause instanceof Error ? cause.name : ""
            return name === "TimeoutError" || name === "AbortError"
              ? new WebhookSendFailed({ reason: "timeout", message: `no answer within ${webhook.timeoutMs} ms` })
              : new WebhookSendFailed({ reason: "network", message: "the receiver could not be reached" })
          }
        })
      ).pipe(Effect.withSpan("WebhookSender.send"))
  })
)

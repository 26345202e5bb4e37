import type { WebhooksSettings } from "@svc/adapters-webhooks"
import { ChatInteractionsWebhook, DeliveryConfig, InboundRetryConfig, InboundWebhooks } from "@svc/domain"
import { Config, type Context, Effect, Option, Redacted } from "effect"
import { configuredFileKeySecret, configuredSessionSecret } from "../Config.ts"
import { positiveInt } from "./Values.ts"

/**
 * Where outbound POSTs may go (`WEBHOOK_ALLOW_PRIVATE_DESTINATIONS`, development only: http and loopback, private or
 * other non-public addresses allowed; default false): webhook endpoints and deliveries, and chat response URLs.
 */
export const allowPrivateDestinationsConfig = Config.Boolean("WEBHOOK_ALLOW_PRIVATE_DESTINATIONS").pipe(
  Config.withDefault(false)
)

/** `WEBHOOK_DELIVERY_SCHEDULE_MS`: comma-separated waits in milliseconds, when set and well-formed. */
const deliveryScheduleMs = Config.option(Config.String("WEBHOOK_DELIVERY_SCHEDULE_MS")).pipe(
  Config.map(
    Option.flatMap((raw) => {
      const parts = raw.split(",").map((p) => p.trim())
      return parts.every((p) => /^\d+$/u.test(p)) ? Option.some(parts.map(Number)) : Option.none()
    })
  )
)

/**
 * The webhooks adapter's settings: `INBOUND_MAX_ATTEMPTS`, `INBOUND_RETRY_BASE_MS`, `INBOUND_RETRY_MAX_MS`,
 * `WEBHOOK_POLL_INTERVAL_MS`, `WEBHOOK_DELIVERY_SCHEDULE_MS` (comma-separated waits), `WEBHOOK_DELIVERY_TIMEOUT_MS`,
 * `WEBHOOK_DELIVERY_LEASE_MS` (unset values keep the defaults), `WEBHOOK_ALLOW_PRIVATE_DESTINATIONS` (default false),
 * the endpoint-secret key `WEBHOOK_SIGNING_KEY` (else FILE_KEY_SECRET, else SESSION_JWT_SECRET, else a random one),
 * each inbound endpoint's secret variable (`WEBHOOK_SECRET_<NAME>` and friends), and `WEBHOOK_WORKERS` (on unless `off`).
 */
export const webhooksConfig = Effect.gen(function* () {
  const inbound = InboundRetryConfig.defaultValue()
  const delivery = DeliveryConfig.defaultValue()
  const maxAttempts = yield* positiveInt("INBOUND_MAX_ATTEMPTS")
  const baseDelay = yield* positiveInt("INBOUND_RETRY_BASE_MS")
  const maxDelay = yield* positiveInt("INBOUND_RETRY_MAX_MS")
  const poll = yield* positiveInt("WEBHOOK_POLL_INTERVAL_MS")
  const timeout = yield* positiveInt("WEBHOOK_DELIVERY_TIMEOUT_MS")
  const lease = yield* positiveInt("WEBHOOK_DELIVERY_LEASE_MS")
  const scheduleMs = yield* deliveryScheduleMs
  const allowPrivateDestinations = yield* allowPrivateDestinationsConfig
  const signingKey = yield* Config.option(Config.Redacted("WEBHOOK_SIGNING_KEY"))
  const fileKeySecret = yield* configuredFileKeySecret
  const sessionSecret = yield* configuredSessionSecret
  const key = signingKey.pipe(
    Option.orElse(() => fileKeySecret),
    Option.orElse(() => sessionSecret)
  )
  if (Option.isNone(key)) {
    yield* Effect.logWarning("WEBHOOK_SIGNING_KEY is unset: webhook endpoint secrets change when the process restarts")
  }
  const inboundSecrets: Record<string, string | undefined> = {}
  for (const { secretEnv } of [...InboundWebhooks, ChatInteractionsWebhook]) {
    inboundSecrets[secretEnv] = Option.getOrUndefined(yield* Config.option(Config.String(secretEnv)))
  }
  const workers = yield* Config.String("WEBHOOK_WORKERS").pipe(Config.withDefault("on"))
  return {
    inbound: {
      ...inbound,
      maxAttempts: Option.getOrElse(maxAttempts, () => inbound.maxAttempts),
      baseDelayMs: Option.getOrElse(baseDelay, () => inbound.baseDelayMs),
      maxDelayMs: Option.getOrElse(maxDelay, () => inbound.maxDelayMs),
      pollIntervalMs: Option.getOrElse(poll, () => inbound.pollIntervalMs)
    },
    delivery: {
      ...delivery,
      scheduleMs: Option.getOrElse(scheduleMs, () => delivery.scheduleMs),
      timeoutMs: Option.getOrElse(timeout, () => delivery.timeoutMs),
      leaseMs: Option.getOrElse(lease, () => delivery.leaseMs),
      pollIntervalMs: Option.getOrElse(poll, () => delivery.pollIntervalMs)
    },
    allowPrivateDestinations,
    secretKey: Option.match(key, { onNone: () => crypto.randomUUID() + crypto.randomUUID(), onSome: Redacted.value }),
    inboundSecrets,
    workers: workers.toLowerCase() !== "off"
  } satisfies Context.Service.Shape<typeof WebhooksSettings>
})

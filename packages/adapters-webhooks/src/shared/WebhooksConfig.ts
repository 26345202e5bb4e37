import { DeliveryConfig, InboundRetryConfig, WebhookDestinations, WebhookSecretKey } from "@svc/domain"
import { Config, Effect, Layer, Option, Redacted } from "effect"

/**
 * Where outbound POSTs may go, from `WEBHOOK_ALLOW_PRIVATE_DESTINATIONS` (development only: http and loopback, private
 * or other non-public addresses allowed; default false): webhook endpoints and deliveries, and chat response URLs.
 */
export const WebhookDestinationsLive = Layer.effect(
  WebhookDestinations,
  Effect.map(
    Config.Boolean("WEBHOOK_ALLOW_PRIVATE_DESTINATIONS").pipe(Config.withDefault(false)),
    (allowPrivateDestinations) => ({ allowPrivateDestinations })
  )
)

const positiveInt = (name: string) =>
  Config.option(Config.Int(name)).pipe(Config.map(Option.filter((n: number) => n > 0)))

/**
 * Webhook settings from the environment: `INBOUND_MAX_ATTEMPTS`, `INBOUND_RETRY_BASE_MS`, `INBOUND_RETRY_MAX_MS`,
 * `WEBHOOK_POLL_INTERVAL_MS`, `WEBHOOK_DELIVERY_SCHEDULE_MS` (comma-separated waits), `WEBHOOK_DELIVERY_TIMEOUT_MS`,
 * `WEBHOOK_DELIVERY_LEASE_MS`, `WEBHOOK_ALLOW_PRIVATE_DESTINATIONS` (`WebhookDestinationsLive`), and the
 * endpoint-secret key `WEBHOOK_SIGNING_KEY` (else FILE_KEY_SECRET, else SESSION_JWT_SECRET). Unset values keep the
 * defaults.
 */
export const WebhooksConfigLive = Layer.unwrap(
  Effect.gen(function* () {
    const inbound = InboundRetryConfig.defaultValue()
    const delivery = DeliveryConfig.defaultValue()
    const maxAttempts = yield* positiveInt("INBOUND_MAX_ATTEMPTS")
    const baseDelay = yield* positiveInt("INBOUND_RETRY_BASE_MS")
    const maxDelay = yield* positiveInt("INBOUND_RETRY_MAX_MS")
    const poll = yield* positiveInt("WEBHOOK_POLL_INTERVAL_MS")
    const timeout = yield* positiveInt("WEBHOOK_DELIVERY_TIMEOUT_MS")
    const lease = yield* positiveInt("WEBHOOK_DELIVERY_LEASE_MS")
    const schedule = yield* Config.option(Config.String("WEBHOOK_DELIVERY_SCHEDULE_MS"))
    const scheduleMs = Option.flatMap(schedule, (raw) => {
      const parts = raw.split(",").map((p) => p.trim())
      return parts.every((p) => /^\d+$/u.test(p)) ? Option.some(parts.map(Number)) : Option.none()
    })
    const key = yield* Config.option(
      Config.Redacted("WEBHOOK_SIGNING_KEY").pipe(
        Config.orElse(() => Config.Redacted("FILE_KEY_SECRET")),
        Config.orElse(() => Config.Redacted("SESSION_JWT_SECRET"))
      )
    )
    if (Option.isNone(key)) {
      yield* Effect.logWarning(
        "WEBHOOK_SIGNING_KEY is unset: webhook endpoint secrets change when the process restarts"
      )
    }
    return Layer.mergeAll(
      Layer.succeed(InboundRetryConfig, {
        ...inbound,
        maxAttempts: Option.getOrElse(maxAttempts, () => inbound.maxAttempts),
        baseDelayMs: Option.getOrElse(baseDelay, () => inbound.baseDelayMs),
        maxDelayMs: Option.getOrElse(maxDelay, () => inbound.maxDelayMs),
        pollIntervalMs: Option.getOrElse(poll, () => inbound.pollIntervalMs)
      }),
      Layer.succeed(DeliveryConfig, {
        ...delivery,
        scheduleMs: Option.getOrElse(scheduleMs, () => delivery.scheduleMs),
        timeoutMs: Option.getOrElse(timeout, () => delivery.timeoutMs),
        leaseMs: Option.getOrElse(lease, () => delivery.leaseMs),
        pollIntervalMs: Option.getOrElse(poll, () => delivery.pollIntervalMs)
      }),
      WebhookDestinationsLive,
      Layer.succeed(
        WebhookSecretKey,
        Option.match(key, {
          onNone: () => crypto.randomUUID() + crypto.randomUUID(),
          onSome: Redacted.value
        })
      )
    )
  })
)

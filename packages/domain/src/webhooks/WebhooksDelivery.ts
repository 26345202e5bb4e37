import { Clock, Context, Effect, Layer, Option, Random, Schema } from "effect"
import type { DomainEvent } from "../platform/index.ts"
import { isoOfMillis, newIdText, nowIso, type PersistenceUnavailable, Transactor } from "../shared/index.ts"
import type { DeliveryAttemptResult, WebhookDelivery } from "./WebhookEndpoint.ts"
import { subscribesTo } from "./WebhookRules.ts"
import { WebhookEndpoints } from "./Webhooks.ts"
import { WebhookDeliveriesRepo, WebhookEndpointsRepo } from "./WebhooksRepo.ts"

/** A signed POST to send: Standard Webhooks headers are computed from these by the sender. */
export interface OutboundWebhook {
  readonly url: string
  readonly webhookId: string
  readonly timestampSeconds: number
  readonly body: string
  readonly secrets: ReadonlyArray<string>
  readonly timeoutMs: number
}

/** What the receiver answered. */
export interface ReceiverResponse {
  readonly status: number
  readonly retryAfterSeconds: number | null
}

/** The receiver could not be reached, did not answer in time, or is at a destination the sender refuses to reach. */
export class WebhookSendFailed extends Schema.TaggedError<WebhookSendFailed>()("WebhookSendFailed", {
  reason: Schema.Literals(["network", "timeout", "refused"]),
  message: Schema.String
}) {}

/** Signs and sends one outbound webhook. */
export class WebhookSender extends Context.Service<
  WebhookSender,
  { readonly send: (webhook: OutboundWebhook) => Effect.Effect<ReceiverResponse, WebhookSendFailed> }
>()("@svc/domain/WebhookSender") {}

/** How outbound deliveries are paced and retried. `scheduleMs[i]` is the wait after failed attempt i + 1. */
export interface DeliveryPolicy {
  readonly scheduleMs: ReadonlyArray<number>
  readonly jitter: number
  readonly timeoutMs: number
  readonly leaseMs: number
  readonly maxRetryAfterMs: number
  readonly pollIntervalMs: number
  readonly batchSize: number
}

const SECOND = 1_000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE

/** The delivery policy in force. Default: 10 attempts over about 3 days (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h), ±20 % jitter, 10 s timeout. */
export const DeliveryConfig = Context.Reference<DeliveryPolicy>("@svc/domain/DeliveryConfig", {
  defaultValue: () => ({
    scheduleMs: [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 14 * HOUR, 20 * HOUR, 24 * HOUR],
    jitter: 0.2,
    timeoutMs: 10 * SECOND,
    leaseMs: 60 * SECOND,
    maxRetryAfterMs: 24 * HOUR,
    pollIntervalMs: SECOND,
    batchSize: 20
  })
})

/** What an attempt leads to: done, retry at a time, or give up (and whether the endpoint must be disabled). */
export interface AttemptOutcome {
  readonly result: DeliveryAttemptResult
  readonly disableEndpoint: boolean
}

const RETRYABLE_STATUS = (status: number) => status >= 500 || status === 408 || status === 429

/**
 * The next state of a delivery after attempt number `attempts`: 2xx succeeds; 410 fails and disables the endpoint;
 * network errors, timeouts, 408, 429 and 5xx retry on the schedule with jitter (429/503 at their `Retry-After` when
 * given) until the schedule is used up; a refused destination and any other status (redirects included) fail at once.
 */
export const attemptOutcome = (
  policy: DeliveryPolicy,
  attempts: number,
  response: ReceiverResponse | WebhookSendFailed,
  nowMs: number,
  random: number
): AttemptOutcome => {
  const now = isoOfMillis(nowMs)
  const base = { attempts, updatedAt: now, nextAttemptAt: now, deliveredAt: null }
  if (response instanceof WebhookSendFailed && response.reason === "refused") {
    const lastError = `${response.reason}: ${response.message}`
    return { result: { ...base, status: "failed", lastStatusCode: null, lastError }, disableEndpoint: false }
  }
  if (response instanceof WebhookSendFailed || RETRYABLE_STATUS(response.status)) {
    const statusCode = response instanceof WebhookSendFailed ? null : response.status
    const lastError =
      response instanceof WebhookSendFailed
        ? `${response.reason}: ${response.message}`
        : `receiver answered ${statusCode}`
    const wait = policy.scheduleMs[attempts - 1]
    if (wait === undefined) {
      return { result: { ...base, status: "failed", lastStatusCode: statusCode, lastError }, disableEndpoint: false }
    }
    const retryAfter =
      response instanceof WebhookSendFailed || response.retryAfterSeconds === null ? null : response.retryAfterSeconds
    const delay =
      retryAfter !== null && (statusCode === 429 || statusCode === 503)
        ? Math.min(policy.maxRetryAfterMs, retryAfter * SECOND)
        : Math.round(wait * (1 - policy.jitter + 2 * policy.jitter * random))
    return {
      result: {
        ...base,
        status: "pending",
        nextAttemptAt: isoOfMillis(nowMs + delay),
        lastStatusCode: statusCode,
        lastError
      },
      disableEndpoint: false
    }
  }
  if (response.status >= 200 && response.status < 300) {
    return {
      result: { ...base, status: "succeeded", lastStatusCode: response.status, lastError: null, deliveredAt: now },
      disableEndpoint: false
    }
  }
  return {
    result: {
      ...base,
      status: "failed",
      lastStatusCode: response.status,
      lastError: `receiver answered ${response.status}`
    },
    disableEndpoint: response.status === 410
  }
}

/** The JSON body sent for an event. */
export const eventBody = (event: DomainEvent): string =>
  JSON.stringify({
    id: event.id,
    object: "event",
    type: event.type,
    mode: event.mode,
    createdAt: event.createdAt,
    data: event.data
  })

/** Turns outbox events into deliveries and sends due deliveries, paced by the `DeliveryConfig` it was built with; safe to run in several processes at once. */
export class WebhookDispatcher extends Context.Service<
  WebhookDispatcher,
  {
    /** Fans out up to `batchSize` outbox events into deliveries, once each; returns how many events it took. */
    readonly fanOut: Effect.Effect<number, PersistenceUnavailable>
    /** Sends up to `batchSize` due deliveries; returns how many it attempted. */
    readonly deliverDue: Effect.Effect<number, PersistenceUnavailable>
  }
>()("@svc/domain/WebhookDispatcher") {
  static readonly make = Effect.gen(function* () {
    const transactor = yield* Transactor
    const deliveries = yield* WebhookDeliveriesRepo
    const endpointsRepo = yield* WebhookEndpointsRepo
    const endpoints = yield* WebhookEndpoints
    const sender = yield* WebhookSender
    const policy = yield* DeliveryConfig

    const fanOut = transactor
      .withTransaction(
        Effect.gen(function* () {
          const events = yield* deliveries.lockUndispatchedEvents(policy.batchSize)
          if (events.length === 0) return 0
          const endpoints = yield* endpointsRepo.listEnabled([...new Set(events.map((e) => e.teamId))])
          const now = yield* nowIso
          const pairs = events.flatMap((event) =>
            endpoints
              .filter((endpoint) => endpoint.teamId === event.teamId && subscribesTo(endpoint, event.type))
              .map((endpoint) => ({ event, endpoint }))
          )
          const ids = yield* Effect.forEach(pairs, () => newIdText)
          yield* deliveries.insert(
            ...pairs.map(
              ({ event, endpoint }, i): WebhookDelivery => ({
                id: ids[i]!,
                teamId: event.teamId,
                endpointId: endpoint.id,
                eventId: event.id,
                eventType: event.type,
                body: eventBody(event),
                status: "pending",
                attempts: 0,
                nextAttemptAt: now,
                lastStatusCode: null,
                lastError: null,
                redeliveryOf: null,
                createdAt: now,
                updatedAt: now,
                deliveredAt: null
              })
            )
          )
          yield* deliveries.markDispatched(
            events.map((e) => e.id),
            now
          )
          return events.length
        })
      )
      .pipe(Effect.withSpan("WebhookDispatcher.fanOut"))

    const attempt = (delivery: WebhookDelivery) =>
      Effect.gen(function* () {
        const endpoint = yield* endpointsRepo.find(delivery.teamId, delivery.endpointId)
        const nowMs = yield* Clock.currentTimeMillis
        const attempts = delivery.attempts + 1
        if (Option.isNone(endpoint) || !endpoint.value.enabled) {
          const now = isoOfMillis(nowMs)
          return yield* deliveries.recordAttempt(delivery.id, {
            status: "failed",
            attempts: delivery.attempts,
            nextAttemptAt: now,
            lastStatusCode: null,
            lastError: "endpoint disabled",
            deliveredAt: null,
            updatedAt: now
          })
        }
        const response = yield* sender
          .send({
            url: endpoint.value.url,
            webhookId: delivery.eventId,
            timestampSeconds: Math.floor(nowMs / 1000),
            body: delivery.body,
            secrets: yield* endpoints.signingSecrets(endpoint.value, nowMs),
            timeoutMs: policy.timeoutMs
          })
          .pipe(Effect.catchTag("WebhookSendFailed", Effect.succeed))
        const outcome = attemptOutcome(policy, attempts, response, yield* Clock.currentTimeMillis, yield* Random.next)
        yield* deliveries.recordAttempt(delivery.id, outcome.result)
        if (outcome.disableEndpoint) {
          yield* endpoints
            .disable(delivery.teamId, delivery.endpointId, "receiver_gone")
            .pipe(Effect.catchTag("WebhookEndpointNotFound", () => Effect.void))
        }
      })

    const deliverDue = Effect.gen(function* () {
      const nowMs = yield* Clock.currentTimeMillis
      const due = yield* deliveries.claimDue({
        now: isoOfMillis(nowMs),
        leaseUntil: isoOfMillis(nowMs + policy.leaseMs + policy.timeoutMs),
        limit: policy.batchSize
      })
      yield* Effect.forEach(due, attempt, { concurrency: 8, discard: true })
      return due.length
    }).pipe(Effect.withSpan("WebhookDispatcher.deliverDue"))

    return WebhookDispatcher.of({ fanOut, deliverDue })
  })
  static readonly layer = Layer.effect(WebhookDispatcher, WebhookDispatcher.make)
}

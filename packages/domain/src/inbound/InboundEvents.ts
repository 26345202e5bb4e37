import { Context, type Effect, type Option, Schema } from "effect"
import { doublingDelayMs, isoOfMillis } from "../shared/index.ts"
import type { PageRequest, PersistenceUnavailable, TeamId, UserId } from "../shared/model.ts"
import type { InboundEvent, InboundEventStatus } from "./InboundEvent.ts"

/** Which stored events a list shows: one status, of one team or (operators) of every team. */
export interface InboundEventFilter {
  readonly status: InboundEventStatus
  readonly teamId?: TeamId
}

/** Processing a stored event failed; `retryable: false` parks it at once. */
export class InboundProcessingFailed extends Schema.TaggedError<InboundProcessingFailed>()("InboundProcessingFailed", {
  message: Schema.String,
  retryable: Schema.Boolean
}) {}

/** Storage of inbound provider events; claims never hand the same due row to two workers at once. */
export class InboundEventStore extends Context.Service<
  InboundEventStore,
  {
    /** Inserts the event unless (endpoint, providerEventId) exists; returns the stored row and whether it already was. */
    readonly record: (
      event: InboundEvent
    ) => Effect.Effect<{ readonly event: InboundEvent; readonly duplicate: boolean }, PersistenceUnavailable>
    /** Takes up to `limit` pending rows due at `now` (skipping rows another worker holds), counts an attempt and leases them until `leaseUntil`. */
    readonly claimDue: (input: {
      readonly now: string
      readonly leaseUntil: string
      readonly limit: number
    }) => Effect.Effect<ReadonlyArray<InboundEvent>, PersistenceUnavailable>
    /** Claims one pending row whatever its due time (synchronous processing); none when it is processed or parked. */
    readonly claim: (
      id: string,
      leaseUntil: string
    ) => Effect.Effect<Option.Option<InboundEvent>, PersistenceUnavailable>
    readonly markProcessed: (id: string, at: string) => Effect.Effect<void, PersistenceUnavailable>
    /** Records a failed attempt: retried at `retryAt`, or parked when it is null. */
    readonly markFailed: (
      id: string,
      error: string,
      retryAt: string | null
    ) => Effect.Effect<void, PersistenceUnavailable>
    readonly find: (id: string) => Effect.Effect<Option.Option<InboundEvent>, PersistenceUnavailable>
    /** Events with the filter's status (and team), newest received first. */
    readonly list: (
      filter: InboundEventFilter,
      page: PageRequest
    ) => Effect.Effect<ReadonlyArray<InboundEvent>, PersistenceUnavailable>
    /** Moves a parked event back to pending, due at `now` with its attempts reset; none when it is not parked. */
    readonly requeueParked: (
      id: string,
      now: string
    ) => Effect.Effect<Option.Option<InboundEvent>, PersistenceUnavailable>
    /** Marks a parked event discarded by `by` at `at`; none when it is not parked. */
    readonly discardParked: (
      id: string,
      by: UserId,
      at: string
    ) => Effect.Effect<Option.Option<InboundEvent>, PersistenceUnavailable>
    /** How many events are parked, waiting for an operator. */
    readonly countParked: Effect.Effect<number, PersistenceUnavailable>
  }
>()("@svc/domain/InboundEventStore") {}

/** How inbound processing retries: attempts before parking, exponential backoff bounds, and the worker's pace. */
export interface InboundRetryPolicy {
  readonly maxAttempts: number
  readonly baseDelayMs: number
  readonly maxDelayMs: number
  readonly leaseMs: number
  readonly pollIntervalMs: number
  readonly batchSize: number
}

/** The inbound retry policy in force (defaults: 8 attempts, 1 s doubling up to 1 h). */
export const InboundRetryConfig = Context.Reference<InboundRetryPolicy>("@svc/domain/InboundRetryConfig", {
  defaultValue: () => ({
    maxAttempts: 8,
    baseDelayMs: 1_000,
    maxDelayMs: 3_600_000,
    leaseMs: 60_000,
    pollIntervalMs: 1_000,
    batchSize: 20
  })
})

/** When a failed attempt is retried, or null to park it: doubling from the base delay, capped, until maxAttempts. */
export const inboundRetryAt = (
  policy: InboundRetryPolicy,
  attempts: number,
  failure: InboundProcessingFailed,
  nowMs: number
): string | null => {
  if (!failure.retryable || attempts >= policy.maxAttempts) return null
  return isoOfMillis(nowMs + doublingDelayMs(policy, attempts))
}

import { Schema } from "effect"
import { TeamId, UserId } from "../shared/model.ts"

/**
 * Where a stored provider event stands: waiting (or retrying), done, parked after too many failures, or discarded by
 * the team (kept, never processed).
 */
export const InboundEventStatus = Schema.Literals(["pending", "processed", "parked", "discarded"])
export type InboundEventStatus = typeof InboundEventStatus.Type

/** A verified provider event, stored once per (endpoint, provider event id) before it is acknowledged. */
export const InboundEvent = Schema.Struct({
  id: Schema.String,
  endpoint: Schema.String,
  providerEventId: Schema.String,
  type: Schema.String,
  payload: Schema.Record(Schema.String, Schema.Unknown),
  status: InboundEventStatus,
  attempts: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
  nextAttemptAt: Schema.String,
  lastError: Schema.NullOr(Schema.String),
  receivedAt: Schema.String,
  processedAt: Schema.NullOr(Schema.String),
  /** The team the event's command names, when it names one directly; null for events no team can see. */
  teamId: Schema.NullOr(TeamId),
  discardedAt: Schema.NullOr(Schema.String),
  discardedBy: Schema.NullOr(UserId)
})
export type InboundEvent = typeof InboundEvent.Type

/** A stored provider event as its team sees it: never the provider's request headers (they are not stored). */
export const InboundEventView = Schema.Struct({
  id: Schema.String,
  object: Schema.Literal("inbound_event"),
  endpoint: Schema.String,
  providerEventId: Schema.String,
  type: Schema.String,
  status: InboundEventStatus,
  attempts: Schema.Int,
  nextAttemptAt: Schema.NullOr(Schema.String),
  lastError: Schema.NullOr(Schema.String),
  payload: Schema.Record(Schema.String, Schema.Unknown),
  receivedAt: Schema.String,
  processedAt: Schema.NullOr(Schema.String),
  discardedAt: Schema.NullOr(Schema.String),
  discardedBy: Schema.NullOr(Schema.String)
})
export type InboundEventView = typeof InboundEventView.Type

/** The view of a stored event; `nextAttemptAt` only while it waits. */
export const inboundEventView = (event: InboundEvent): InboundEventView => ({
  id: event.id,
  object: "inbound_event",
  endpoint: event.endpoint,
  providerEventId: event.providerEventId,
  type: event.type,
  status: event.status,
  attempts: event.attempts,
  nextAttemptAt: event.status === "pending" ? event.nextAttemptAt : null,
  lastError: event.lastError,
  payload: event.payload,
  receivedAt: event.receivedAt,
  processedAt: event.processedAt,
  discardedAt: event.discardedAt,
  discardedBy: event.discardedBy
})

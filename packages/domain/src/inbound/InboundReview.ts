import { Context, Effect, Layer, Option, Schema } from "effect"
import { nowIso, type PageRequest, type PersistenceUnavailable, type TeamId, type UserId } from "../shared/index.ts"
import { type InboundEvent, InboundEventStatus } from "./InboundEvent.ts"
import { InboundEventStore } from "./InboundEvents.ts"

/** No stored event has this id among the team's events. */
export class InboundEventNotFound extends Schema.TaggedError<InboundEventNotFound>()("InboundEventNotFound", {
  id: Schema.String
}) {}

/** The event is not parked, so it can be neither retried nor discarded; `status` is where it stands. */
export class InboundEventNotParked extends Schema.TaggedError<InboundEventNotParked>()("InboundEventNotParked", {
  id: Schema.String,
  status: InboundEventStatus
}) {}

/**
 * A team's review of the provider events that name it: list and read them, send a parked event back to the worker,
 * or discard it (kept for audit, never processed). Events that name no team are seen by no team.
 */
export class InboundReview extends Context.Service<
  InboundReview,
  {
    /** The team's events with `status`, newest received first (`limit + 1` rows, for `toPage`). */
    readonly list: (
      teamId: TeamId,
      status: InboundEventStatus,
      page: PageRequest
    ) => Effect.Effect<ReadonlyArray<InboundEvent>, PersistenceUnavailable>
    readonly get: (
      teamId: TeamId,
      id: string
    ) => Effect.Effect<InboundEvent, InboundEventNotFound | PersistenceUnavailable>
    /**
     * Moves a parked event back to pending, due now with its attempts reset, so the worker runs it again (its command
     * is idempotent). Retrying an event already pending changes nothing; a processed or discarded one is not parked.
     */
    readonly retry: (
      teamId: TeamId,
      id: string
    ) => Effect.Effect<InboundEvent, InboundEventNotFound | InboundEventNotParked | PersistenceUnavailable>
    /** Marks a parked event discarded by `userId`; discarding it again changes nothing; a pending or processed one is not parked. */
    readonly discard: (
      teamId: TeamId,
      userId: UserId,
      id: string
    ) => Effect.Effect<InboundEvent, InboundEventNotFound | InboundEventNotParked | PersistenceUnavailable>
  }
>()("@svc/domain/InboundReview") {
  static readonly make = Effect.gen(function* () {
    const store = yield* InboundEventStore

    const get = Effect.fn("InboundReview.get")(function* (teamId: TeamId, id: string) {
      const found = yield* store.find(id)
      if (Option.isNone(found) || found.value.teamId !== teamId) return yield* new InboundEventNotFound({ id })
      return found.value
    })

    /** Applies a move out of `parked`; when the event was not parked, `already` is the status that counts as done. */
    const fromParked = (
      teamId: TeamId,
      id: string,
      already: InboundEventStatus,
      move: Effect.Effect<Option.Option<InboundEvent>, PersistenceUnavailable>
    ) =>
      Effect.gen(function* () {
        const event = yield* get(teamId, id)
        const moved = event.status === "parked" ? yield* move : Option.none()
        if (Option.isSome(moved)) return moved.value
        const current = event.status === "parked" ? yield* get(teamId, id) : event
        if (current.status === already) return current
        return yield* new InboundEventNotParked({ id, status: current.status })
      })

    return InboundReview.of({
      list: Effect.fn("InboundReview.list")(function* (teamId, status, page) {
        return yield* store.list({ teamId, status }, page)
      }),
      get,
      retry: Effect.fn("InboundReview.retry")(function* (teamId, id) {
        return yield* fromParked(
          teamId,
          id,
          "pending",
          Effect.flatMap(nowIso, (now) => store.requeueParked(id, now))
        )
      }),
      discard: Effect.fn("InboundReview.discard")(function* (teamId, userId, id) {
        return yield* fromParked(
          teamId,
          id,
          "discarded",
          Effect.flatMap(nowIso, (now) => store.discardParked(id, userId, now))
        )
      })
    })
  })

  static readonly layer = Layer.effect(InboundReview, InboundReview.make)
}

import { assert, layer } from "@effect/vitest"
import {
  type CategoriesRepo,
  type InboundEvent,
  type InboundEventStatus,
  InboundEventStore,
  InboundReview,
  isoOfMillis,
  type LedgerRepo,
  pageRequest,
  type ReceiveHandlesRepo,
  type TeamId,
  type TeamsRepo,
  type Transactor,
  toPage,
  type UsersRepo
} from "@svc/domain"
import { Clock, Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { domainOver, newTeam } from "../ledger/LedgerSetup.ts"

/** The ports the review suite runs over. */
type ReviewPorts =
  | Transactor
  | UsersRepo
  | TeamsRepo
  | ReceiveHandlesRepo
  | CategoriesRepo
  | LedgerRepo
  | InboundEventStore

const T0 = Date.parse("2026-03-01T12:00:00.000Z")

/** Stores an event of `teamId` received `ageMs` before now, then sets it to `status` as the runner would. */
const storedEvent = (teamId: TeamId | null, status: InboundEventStatus = "parked", ageMs = 0) =>
  Effect.gen(function* () {
    const store = yield* InboundEventStore
    const now = yield* Clock.currentTimeMillis
    const event: InboundEvent = {
      id: crypto.randomUUID(),
      endpoint: "banking-a",
      providerEventId: `evt_${crypto.randomUUID()}`,
      type: "deposit.received",
      payload: { id: "evt", type: "deposit.received", data: { amount: 100 } },
      status: "pending",
      attempts: 3,
      nextAttemptAt: isoOfMillis(now),
      lastError: null,
      receivedAt: isoOfMillis(now - ageMs),
      processedAt: null,
      teamId,
      discardedAt: null,
      discardedBy: null
    }
    yield* store.record(event)
    if (status === "parked") yield* store.markFailed(event.id, "no live EUR spend account", null)
    if (status === "processed") yield* store.markProcessed(event.id, isoOfMillis(now))
    return event.id
  })

const failure = <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.flip(self)

/** The review of stored inbound events every InboundEventStore adapter must carry. */
export const inboundReviewSuite = <E>(name: string, ports: Layer.Layer<ReviewPorts, E, never>) =>
  layer(InboundReview.layer.pipe(Layer.provideMerge(domainOver(ports))), { timeout: "60 seconds" })(
    `Inbound event review (${name})`,
    (it) => {
      it.effect(
        "a parked event is listed for its team only, and retried back to pending, due now, attempts reset",
        () =>
          Effect.gen(function* () {
            yield* TestClock.setTime(T0)
            const review = yield* InboundReview
            const store = yield* InboundEventStore
            const { team } = yield* newTeam
            const other = yield* newTeam
            const id = yield* storedEvent(team.id)
            const first = yield* pageRequest(undefined, 100)
            const listed = yield* review.list(team.id, "parked", first)
            assert.deepStrictEqual(
              listed.map((e) => e.id),
              [id]
            )
            assert.strictEqual(listed[0]!.lastError, "no live EUR spend account")
            assert.deepStrictEqual(yield* review.list(other.team.id, "parked", first), [])
            assert.isTrue(
              (yield* store.list({ status: "parked" }, first)).some((e) => e.id === id),
              "operators see all"
            )

            yield* TestClock.adjust("1 minute")
            const retried = yield* review.retry(team.id, id)
            assert.strictEqual(retried.status, "pending")
            assert.strictEqual(retried.attempts, 0)
            assert.strictEqual(retried.nextAttemptAt, isoOfMillis(T0 + 60_000))
            assert.strictEqual(retried.lastError, "no live EUR spend account", "the last failure stays readable")
            const again = yield* review.retry(team.id, id)
            assert.deepStrictEqual(again, retried, "retrying a pending event changes nothing")
            assert.deepStrictEqual(yield* review.list(team.id, "parked", first), [])
            const due = yield* store.claimDue({
              now: isoOfMillis(T0 + 60_000),
              leaseUntil: isoOfMillis(T0 + 120_000),
              limit: 100
            })
            assert.isTrue(
              due.some((e) => e.id === id),
              "the worker takes it again"
            )
          }).pipe(Effect.provide(TestClock.layer()))
      )

      it.effect("a discarded event is kept with who and when, listed as discarded, and never claimed", () =>
        Effect.gen(function* () {
          const review = yield* InboundReview
          const store = yield* InboundEventStore
          const { team, owner } = yield* newTeam
          const id = yield* storedEvent(team.id)
          const discarded = yield* review.discard(team.id, owner.id, id)
          assert.strictEqual(discarded.status, "discarded")
          assert.strictEqual(discarded.discardedBy, owner.id)
          assert.isNotNull(discarded.discardedAt)
          assert.deepStrictEqual(yield* review.discard(team.id, owner.id, id), discarded, "discarding again is a no-op")
          assert.deepStrictEqual(yield* review.get(team.id, id), discarded)
          const first = yield* pageRequest(undefined, 100)
          assert.deepStrictEqual(
            (yield* review.list(team.id, "discarded", first)).map((e) => e.id),
            [id]
          )
          const error = yield* failure(review.retry(team.id, id))
          assert.deepStrictEqual(
            [error._tag, "status" in error ? error.status : null],
            ["InboundEventNotParked", "discarded"]
          )
          const due = yield* store.claimDue({
            now: "2999-01-01T00:00:00.000Z",
            leaseUntil: "2999-01-01T00:01:00.000Z",
            limit: 1000
          })
          assert.isFalse(due.some((e) => e.id === id))
          assert.isTrue(Option.isNone(yield* store.claim(id, "2999-01-01T00:01:00.000Z")))
        })
      )

      it.effect(
        "only parked events move: pending cannot be discarded, processed can be neither retried nor discarded",
        () =>
          Effect.gen(function* () {
            const review = yield* InboundReview
            const { team, owner } = yield* newTeam
            const pending = yield* storedEvent(team.id, "pending")
            const processed = yield* storedEvent(team.id, "processed")
            assert.strictEqual((yield* review.retry(team.id, pending)).status, "pending")
            const refusals = yield* Effect.all([
              failure(review.discard(team.id, owner.id, pending)),
              failure(review.retry(team.id, processed)),
              failure(review.discard(team.id, owner.id, processed))
            ])
            assert.deepStrictEqual(
              refusals.map((e) => (e._tag === "InboundEventNotParked" ? e.status : e._tag)),
              ["pending", "processed", "processed"]
            )
            assert.strictEqual((yield* review.get(team.id, processed)).status, "processed")
          })
      )

      it.effect("another team's event, an event that names no team and an unknown id are all not found", () =>
        Effect.gen(function* () {
          const review = yield* InboundReview
          const { team } = yield* newTeam
          const other = yield* newTeam
          const theirs = yield* storedEvent(other.team.id)
          const nobodys = yield* storedEvent(null)
          for (const id of [theirs, nobodys, crypto.randomUUID()]) {
            const errors = yield* Effect.all([
              failure(review.get(team.id, id)),
              failure(review.retry(team.id, id)),
              failure(review.discard(team.id, other.owner.id, id))
            ])
            assert.deepStrictEqual(
              errors.map((e) => e._tag),
              ["InboundEventNotFound", "InboundEventNotFound", "InboundEventNotFound"]
            )
          }
          assert.strictEqual((yield* review.get(other.team.id, theirs)).status, "parked", "unchanged")
        })
      )

      it.effect("a concurrent retry and discard: exactly one wins, the other sees where the event went", () =>
        Effect.gen(function* () {
          const review = yield* InboundReview
          const { team, owner } = yield* newTeam
          for (let round = 0; round < 5; round++) {
            const id = yield* storedEvent(team.id)
            const [retry, discard] = yield* Effect.all(
              [Effect.result(review.retry(team.id, id)), Effect.result(review.discard(team.id, owner.id, id))],
              { concurrency: "unbounded" }
            )
            assert.strictEqual([retry, discard].filter((r) => r._tag === "Success").length, 1)
            const final = yield* review.get(team.id, id)
            assert.strictEqual(final.status, retry._tag === "Success" ? "pending" : "discarded")
          }
        })
      )

      it.effect("lists page newest received first", () =>
        Effect.gen(function* () {
          const review = yield* InboundReview
          const { team } = yield* newTeam
          const oldest = yield* storedEvent(team.id, "parked", 3000)
          const middle = yield* storedEvent(team.id, "parked", 2000)
          const newest = yield* storedEvent(team.id, "parked", 1000)
          const first = yield* pageRequest(undefined, 2)
          const positioned = (rows: ReadonlyArray<InboundEvent>) => rows.map((e) => ({ ...e, createdAt: e.receivedAt }))
          const page1 = toPage(first, positioned(yield* review.list(team.id, "parked", first)))
          assert.deepStrictEqual(
            page1.data.map((e) => e.id),
            [newest, middle]
          )
          assert.isTrue(page1.meta.hasNextPage)
          const second = yield* pageRequest(page1.meta.cursor!, 2)
          const page2 = toPage(second, positioned(yield* review.list(team.id, "parked", second)))
          assert.deepStrictEqual(
            page2.data.map((e) => e.id),
            [oldest]
          )
          assert.isFalse(page2.meta.hasNextPage)
        })
      )
    }
  )

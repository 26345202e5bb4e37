import { assert, layer } from "@effect/vitest"
import {
  EventOutbox,
  type InboundEvent,
  InboundEventStore,
  Transactor,
  WebhookDeliveriesRepo,
  type WebhookDelivery,
  WebhookEndpointsRepo
} from "@svc/domain"
import { Effect, type Layer } from "effect"
import { domainOver, type LedgerPorts, newTeam } from "../ledger/LedgerSetup.ts"
import { approvedEvent, deliveryRow, endpointRow } from "../webhooks/WebhookRows.ts"

const NOW = "2026-11-20T12:00:00.000Z"
const EARLIER = "2026-11-20T11:00:00.000Z"
const LATER = "2026-11-20T13:00:00.000Z"

/** The counts the /metrics gauges read from the delivery and inbound stores, on whichever ports the caller provides. */
export const backlogCountsContract = <E>(
  name: string,
  ports: Layer.Layer<
    LedgerPorts<EventOutbox | WebhookEndpointsRepo | WebhookDeliveriesRepo | InboundEventStore>,
    E,
    never
  >
) =>
  layer(domainOver(ports), { timeout: "60 seconds" })(`backlog counts (${name})`, (it) => {
    it.effect("counts the pending deliveries due at a moment: not later ones, not finished ones", () =>
      Effect.gen(function* () {
        const repo = yield* WebhookDeliveriesRepo
        const { team } = yield* newTeam
        const endpoint = endpointRow(team.id, EARLIER)
        const endpointId = endpoint.id
        yield* (yield* WebhookEndpointsRepo).insert(endpoint)
        const outbox = yield* EventOutbox
        const transactor = yield* Transactor
        const delivery = (status: WebhookDelivery["status"], nextAttemptAt: string) =>
          Effect.gen(function* () {
            const event = approvedEvent(team.id, EARLIER)
            yield* transactor.withTransaction(outbox.publish(event))
            return deliveryOf(event.id, status, nextAttemptAt)
          })
        const deliveryOf = (
          eventId: string,
          status: WebhookDelivery["status"],
          nextAttemptAt: string
        ): WebhookDelivery => deliveryRow({ teamId: team.id, endpointId, eventId, status, at: EARLIER, nextAttemptAt })
        const before = yield* repo.countDue(NOW)
        const deliveries = yield* Effect.all([
          delivery("pending", EARLIER),
          delivery("pending", NOW),
          delivery("pending", LATER),
          delivery("succeeded", EARLIER),
          delivery("failed", EARLIER)
        ])
        yield* repo.insert(...deliveries)
        assert.strictEqual(yield* repo.countDue(NOW), before + 2)
        assert.strictEqual(yield* repo.countDue(LATER), before + 3)
      })
    )

    it.effect("counts the parked inbound events, and an event once it is parked", () =>
      Effect.gen(function* () {
        const store = yield* InboundEventStore
        const event = (): InboundEvent => ({
          id: crypto.randomUUID(),
          endpoint: "stripe",
          providerEventId: crypto.randomUUID(),
          type: "payment_intent.succeeded",
          payload: {},
          status: "pending",
          attempts: 0,
          nextAttemptAt: EARLIER,
          lastError: null,
          receivedAt: EARLIER,
          processedAt: null,
          teamId: null,
          discardedAt: null,
          discardedBy: null
        })
        const before = yield* store.countParked
        const [first, second] = [event(), event()]
        yield* store.record(first)
        yield* store.record(second)
        assert.strictEqual(yield* store.countParked, before)
        yield* store.markFailed(first.id, "unknown account", null)
        yield* store.markFailed(second.id, "database timeout", LATER)
        assert.strictEqual(yield* store.countParked, before + 1)
      })
    )
  })

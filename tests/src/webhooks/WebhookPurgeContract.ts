import { assert, layer } from "@effect/vitest"
import {
  EventOutbox,
  purgeWebhookHistory,
  Transactor,
  WebhookDeliveriesRepo,
  type WebhookDelivery,
  WebhookEndpointsRepo
} from "@svc/domain"
import { Clock, Duration, Effect, type Layer, Option } from "effect"
import { domainOver, type LedgerPorts, newTeam } from "../ledger/LedgerSetup.ts"
import { approvedEvent, deliveryRow, endpointRow } from "./WebhookRows.ts"

const DAY = 86_400_000

/** The purge of old webhook deliveries and delivered outbox events, on whichever ports the caller provides. */
export const webhookPurgeContract = <E>(
  name: string,
  ports: Layer.Layer<LedgerPorts<EventOutbox | WebhookEndpointsRepo | WebhookDeliveriesRepo>, E, never>
) =>
  layer(domainOver(ports), { timeout: "60 seconds" })(`webhook purge (${name})`, (it) => {
    it.effect(
      "finished deliveries past the retention go, then events without deliveries; pending, recent and undispatched stay",
      () =>
        Effect.gen(function* () {
          const outbox = yield* EventOutbox
          const transactor = yield* Transactor
          const endpoints = yield* WebhookEndpointsRepo
          const repo = yield* WebhookDeliveriesRepo
          const { team } = yield* newTeam
          const now = yield* Clock.currentTimeMillis
          const daysAgo = (days: number) => new Date(now - days * DAY).toISOString()
          const endpoint = endpointRow(team.id, daysAgo(90))
          const endpointId = endpoint.id
          yield* endpoints.insert(endpoint)
          const event = () => approvedEvent(team.id, daysAgo(60))
          const events = {
            noDelivery: event(),
            deliveredLongAgo: event(),
            redelivered: event(),
            stillPending: event(),
            deliveredRecently: event(),
            undispatched: event()
          }
          yield* transactor.withTransaction(outbox.publish(...Object.values(events)))
          yield* repo.markDispatched(
            Object.values(events)
              .filter((e) => e !== events.undispatched)
              .map((e) => e.id),
            daysAgo(60)
          )
          const delivery = (
            eventId: string,
            status: WebhookDelivery["status"],
            days: number,
            redeliveryOf: string | null = null
          ): WebhookDelivery =>
            deliveryRow({
              teamId: team.id,
              endpointId,
              eventId,
              status,
              at: daysAgo(days),
              attempts: status === "pending" ? 3 : 1,
              redeliveryOf
            })
          const old = delivery(events.deliveredLongAgo.id, "succeeded", 45)
          const failedOriginal = delivery(events.redelivered.id, "failed", 40)
          const redelivery = delivery(events.redelivered.id, "succeeded", 2, failedOriginal.id)
          const pending = delivery(events.stillPending.id, "pending", 50)
          const recent = delivery(events.deliveredRecently.id, "succeeded", 29)
          yield* repo.insert(old, failedOriginal, redelivery, pending, recent)

          assert.deepStrictEqual(yield* purgeWebhookHistory(Duration.days(30)), { deliveries: 1, events: 2 })
          const kept = (d: WebhookDelivery) => Effect.map(repo.find(team.id, endpointId, d.id), Option.isSome)
          assert.deepStrictEqual(yield* Effect.forEach([old, failedOriginal, redelivery, pending, recent], kept), [
            false,
            true,
            true,
            true,
            true
          ])
          assert.deepStrictEqual(yield* purgeWebhookHistory(Duration.days(30)), { deliveries: 0, events: 0 })

          yield* repo.recordAttempt(pending.id, {
            status: "failed",
            attempts: 10,
            nextAttemptAt: daysAgo(1),
            lastStatusCode: 500,
            lastError: "receiver answered 500",
            deliveredAt: null,
            updatedAt: daysAgo(1)
          })
          assert.strictEqual(yield* repo.purgeFinishedBefore(new Date(now).toISOString()), 4)
          assert.strictEqual(yield* repo.purgeDispatchedEvents, 3)
          const undispatched = yield* transactor.withTransaction(repo.lockUndispatchedEvents(100))
          assert.deepStrictEqual(
            undispatched.map((e) => e.id),
            [events.undispatched.id]
          )
        })
    )
  })

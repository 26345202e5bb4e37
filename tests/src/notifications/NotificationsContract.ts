import { assert, layer } from "@effect/vitest"
import {
  type DomainEvent,
  EventOutbox,
  NOTIFYING_EVENTS,
  Notifications,
  NotificationsRepo,
  notifyAllPending,
  pageRequest,
  purgeWebhookHistory,
  type TeamId,
  Transactor,
  type UserId,
  WebhookDeliveriesRepo
} from "@svc/domain"
import { Effect, Layer } from "effect"
import { domainOver, type LedgerPorts, newTeam } from "../ledger/LedgerSetup.ts"

/** An outbox event of `teamId` (by default a spend request waiting for approval). */
const eventOf = (teamId: TeamId, type = "spend_request.approval_required", data: Record<string, unknown> = {}) =>
  ({
    id: crypto.randomUUID(),
    teamId,
    mode: "test",
    type,
    data: { id: crypto.randomUUID(), object: "spend_request", amount: 6_000, ...data },
    createdAt: new Date().toISOString()
  }) satisfies DomainEvent

const publish = (...events: ReadonlyArray<DomainEvent>) =>
  Effect.flatMap(Transactor, (t) => t.withTransaction(Effect.flatMap(EventOutbox, (o) => o.publish(...events))))

const firstPage = Effect.runSync(pageRequest(undefined, 100))

const listOf = (
  teamId: TeamId,
  userId: UserId,
  statuses: ReadonlyArray<"unread" | "read" | "archived"> | null = null
) => Effect.flatMap(Notifications, (n) => n.list({ teamId, userId }, { statuses }, firstPage))

/** The notifications of `teamId` made from `eventId`, seen by its owner. */
const madeFrom = (teamId: TeamId, userId: UserId, eventId: string) =>
  Effect.map(listOf(teamId, userId), (all) => all.filter((n) => n.metadata.eventId === eventId))

/** The behaviour every NotificationsRepo adapter shows under the Notifications service. */
export const notificationsContract = <E>(
  name: string,
  ports: Layer.Layer<LedgerPorts<EventOutbox | NotificationsRepo | WebhookDeliveriesRepo>, E, never>
) =>
  layer(Notifications.layer.pipe(Layer.provideMerge(domainOver(ports))), { timeout: "60 seconds" })(
    `notifications (${name})`,
    (it) => {
      it.effect("each notifying event becomes one notification, however many passes run, concurrently or again", () =>
        Effect.gen(function* () {
          const { team, owner } = yield* newTeam
          const events = [
            eventOf(team.id),
            eventOf(team.id, "transfer.approval_required"),
            eventOf(team.id, "spend_request.approved"),
            eventOf(team.id, "transfer.created", { direction: "outgoing" }),
            eventOf(team.id, "transfer.created", { direction: "incoming" })
          ]
          yield* publish(...events)
          yield* Effect.all(
            Array.from({ length: 4 }, () => notifyAllPending),
            { concurrency: "unbounded" }
          )
          yield* notifyAllPending
          const mine = yield* listOf(team.id, owner.id)
          const fromThese = mine.filter((n) => events.some((e) => e.id === n.metadata.eventId))
          assert.deepStrictEqual(fromThese.map((n) => n.type).toSorted(), [
            "spend_request_approval_required",
            "transfer_approval_required",
            "transfer_received"
          ])
          const first = fromThese.find((n) => n.metadata.eventId === events[0]!.id)!
          assert.deepInclude(first, {
            teamId: team.id,
            userId: null,
            priority: 1,
            source: "system",
            status: "unread",
            lastUsedAt: null
          })
          assert.deepStrictEqual(first.metadata, {
            eventId: events[0]!.id,
            eventType: "spend_request.approval_required",
            mode: "test",
            resourceId: events[0]!.data.id,
            resource: events[0]!.data
          })
          assert.strictEqual(yield* Effect.flatMap(Notifications, (n) => n.fromEvents), 0)
        })
      )

      it.effect("every notifying event type reaches a pass, even when the outbox was purged before it", () =>
        Effect.gen(function* () {
          const { team, owner } = yield* newTeam
          const events = Object.keys(NOTIFYING_EVENTS).map((type) =>
            eventOf(team.id, type, type === "transfer.created" ? { direction: "incoming" } : {})
          )
          yield* publish(...events)
          const deliveries = yield* WebhookDeliveriesRepo
          yield* deliveries.markDispatched(
            events.map((e) => e.id),
            new Date().toISOString()
          )
          yield* purgeWebhookHistory("1 day")
          yield* notifyAllPending
          const made = (yield* listOf(team.id, owner.id)).filter((n) => events.some((e) => e.id === n.metadata.eventId))
          assert.deepStrictEqual(
            made.map((n) => n.metadata.eventType).toSorted(),
            Object.keys(NOTIFYING_EVENTS).toSorted()
          )
        })
      )

      it.effect("a pass that fails after writing leaves nothing, and the next pass makes each notification once", () =>
        Effect.gen(function* () {
          const { team, owner } = yield* newTeam
          const event = eventOf(team.id)
          yield* publish(event)
          const repo = yield* NotificationsRepo
          const transactor = yield* Transactor
          const crashed = yield* Effect.flip(
            transactor.withTransaction(
              Effect.gen(function* () {
                const taken = yield* repo.lockUnnotifiedEvents(100)
                assert.isTrue(taken.some((e) => e.id === event.id))
                yield* repo.insert({
                  id: crypto.randomUUID(),
                  teamId: team.id,
                  userId: null,
                  type: "spend_request_approval_required",
                  priority: 1,
                  source: "system",
                  status: "unread",
                  metadata: { eventId: event.id },
                  lastUsedAt: null,
                  eventId: event.id,
                  createdAt: event.createdAt
                })
                return yield* Effect.fail("crash before marking the events")
              })
            )
          )
          assert.strictEqual(crashed, "crash before marking the events")
          assert.deepStrictEqual(yield* madeFrom(team.id, owner.id, event.id), [])
          yield* notifyAllPending
          yield* notifyAllPending
          assert.strictEqual((yield* madeFrom(team.id, owner.id, event.id)).length, 1)
        })
      )

      it.effect("a reader sees the team's notifications and their own, never another team's", () =>
        Effect.gen(function* () {
          const acme = yield* newTeam
          const globex = yield* newTeam
          yield* publish(eventOf(acme.team.id), eventOf(globex.team.id))
          yield* notifyAllPending
          const acmeList = yield* listOf(acme.team.id, acme.owner.id)
          assert.isAbove(acmeList.length, 0)
          assert.isTrue(acmeList.every((n) => n.teamId === acme.team.id))
          const foreign = (yield* listOf(globex.team.id, globex.owner.id))[0]!
          const service = yield* Notifications
          const refused = yield* Effect.flip(
            service.setStatus({ teamId: acme.team.id, userId: acme.owner.id }, foreign.id, "read")
          )
          assert.strictEqual(refused._tag, "NotificationNotFound")
          assert.strictEqual((yield* listOf(globex.team.id, globex.owner.id))[0]!.status, "unread")
        })
      )

      it.effect("status filters, single and bulk status changes; bulk answers only what it changed", () =>
        Effect.gen(function* () {
          const { team, owner } = yield* newTeam
          const reader = { teamId: team.id, userId: owner.id }
          yield* publish(eventOf(team.id), eventOf(team.id), eventOf(team.id))
          yield* notifyAllPending
          const service = yield* Notifications
          const [a, b, c] = yield* listOf(team.id, owner.id)
          const read = yield* service.setStatus(reader, a!.id, "read")
          assert.strictEqual(read.status, "read")
          yield* service.setStatus(reader, b!.id, "archived")
          assert.deepStrictEqual(
            (yield* listOf(team.id, owner.id, ["unread"])).map((n) => n.id),
            [c!.id]
          )
          assert.deepStrictEqual(
            (yield* listOf(team.id, owner.id, ["read", "archived"])).map((n) => n.id),
            [a!.id, b!.id]
          )
          const changed = yield* service.setStatusAll(reader, "read")
          assert.deepStrictEqual(
            changed.map((n) => [n.id, n.status]),
            [
              [b!.id, "read"],
              [c!.id, "read"]
            ]
          )
          assert.deepStrictEqual(yield* service.setStatusAll(reader, "read"), [])
        })
      )

      it.effect("concurrent bulk changes each move all notifications or none: never a mix", () =>
        Effect.gen(function* () {
          const { team, owner } = yield* newTeam
          const reader = { teamId: team.id, userId: owner.id }
          yield* publish(...Array.from({ length: 30 }, () => eventOf(team.id)))
          yield* notifyAllPending
          const service = yield* Notifications
          for (let round = 0; round < 5; round++) {
            yield* Effect.all([service.setStatusAll(reader, "read"), service.setStatusAll(reader, "archived")], {
              concurrency: "unbounded"
            })
            const statuses = new Set((yield* listOf(team.id, owner.id)).map((n) => n.status))
            assert.strictEqual(statuses.size, 1, [...statuses].join(","))
            yield* service.setStatusAll(reader, "unread")
          }
        })
      )

      it.effect("pages newest first through the cursor", () =>
        Effect.gen(function* () {
          const { team, owner } = yield* newTeam
          yield* publish(...Array.from({ length: 5 }, () => eventOf(team.id)))
          yield* notifyAllPending
          const service = yield* Notifications
          const all = yield* listOf(team.id, owner.id)
          const page = Effect.runSync(pageRequest(undefined, 2))
          const first = yield* service.list({ teamId: team.id, userId: owner.id }, { statuses: null }, page)
          assert.deepStrictEqual(
            first.map((n) => n.id),
            all.slice(0, 3).map((n) => n.id)
          )
        })
      )
    }
  )

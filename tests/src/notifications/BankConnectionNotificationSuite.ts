import { assert } from "@effect/vitest"
import { BankConnectionsRepo, Notifications, notifyAllPending } from "@svc/domain"
import { Effect, type Layer } from "effect"
import { appEnv, inboundOver, newTeam, settle } from "../inbound/InboundSetup.ts"
import { call, post, sign, type WebhookPorts, withApp } from "../support/WebhooksHarness.ts"

const disconnection = (eventId: string) =>
  JSON.stringify({ id: eventId, type: "enrollment.disconnected", data: { enrollment_id: "enr_lost" } })

/** A bank connection lost, from the aggregator's webhook to GET /notifications, on whichever ports given. */
export const bankConnectionNotificationSuite = <E>(name: string, ports: Layer.Layer<WebhookPorts, E>) =>
  inboundOver(ports)(`bank connection lost notifies (${name})`, (it) => {
    it.effect(
      "a lost connection notifies its team once, however often (and concurrently) it is reported and passes run",
      () =>
        withApp(appEnv(), (app) =>
          Effect.gen(function* () {
            const { teamId, token } = yield* newTeam(app)
            const connections = yield* BankConnectionsRepo
            const now = new Date().toISOString()
            const connectionId = crypto.randomUUID()
            yield* connections.insert({
              id: connectionId,
              teamId,
              provider: "bank-aggregator-b",
              externalId: "enr_lost",
              status: "connected",
              createdAt: now,
              updatedAt: now
            })
            const deliver = (eventId: string, messageId: string) =>
              Effect.gen(function* () {
                const body = disconnection(eventId)
                const headers = yield* Effect.promise(() => sign("bank-aggregator-b", body, { id: messageId }))
                const answer = yield* post(app, "/webhook/bank-aggregator-b", body, headers)
                assert.strictEqual(answer.status, 200, JSON.stringify(answer.body))
              })
            yield* deliver("ev_lost_1", "msg_lost_1")
            yield* deliver("ev_lost_1", "msg_lost_1")
            yield* deliver("ev_lost_2", "msg_lost_2")
            yield* deliver("ev_lost_3", "msg_lost_3")
            yield* settle(3)
            yield* deliver("ev_lost_4", "msg_lost_4")
            yield* settle()
            const pass = notifyAllPending.pipe(Effect.provide(Notifications.layer))
            yield* Effect.all([pass, pass], { concurrency: "unbounded" })
            const list = yield* call(app, "GET", "/notifications", token)
            assert.strictEqual(list.status, 200, JSON.stringify(list.body))
            assert.deepStrictEqual(
              list.body.data.map((n: { type: string; metadata: { resourceId: string } }) => [
                n.type,
                n.metadata.resourceId
              ]),
              [["bank_connection_disconnected", connectionId]]
            )
            assert.strictEqual(list.body.data[0].priority, 2)
            assert.strictEqual(list.body.data[0].metadata.resource.provider, "bank-aggregator-b")
          })
        )
    )
  })

import { assert } from "@effect/vitest"
import {
  BankConnectionsRepo,
  InboundEventStore,
  InboxItemsRepo,
  ManagedEntitiesRepo,
  pageRequest,
  TeamPlansRepo
} from "@svc/domain"
import { Effect, type Layer, Option } from "effect"
import { post, serveApp, sign, type WebhookPorts, withApp } from "../support/WebhooksHarness.ts"
import { appEnv, deposit, inboundOver, liveBalance, newTeam, pathOf, settle, unverifiedEntity } from "./InboundSetup.ts"

/** What stored inbound events do once processed, over whichever ports the caller provides (memory or Postgres). */
export const inboundProcessingSuite = <E>(name: string, ports: Layer.Layer<WebhookPorts, E>) =>
  inboundOver(ports)(`inbound webhook processing (${name})`, (it) => {
    it.effect("a deposit credits the team's live account once, however often and concurrently it is delivered", () =>
      withApp(appEnv(), (app) =>
        Effect.gen(function* () {
          const { teamId } = yield* newTeam(app)
          const [answers] = yield* Effect.all(
            [
              Effect.forEach(Array.from({ length: 8 }), () => deposit(app, "banking-a", "dep_1", teamId, 2500), {
                concurrency: "unbounded"
              }),
              settle(2).pipe(Effect.repeat({ times: 7 }))
            ],
            { concurrency: "unbounded" }
          )
          assert.deepStrictEqual(
            answers.map((a) => a.status),
            Array(8).fill(200)
          )
          yield* settle()
          assert.strictEqual(yield* liveBalance(teamId), 2500)
          const again = yield* deposit(app, "banking-a", "dep_1", teamId, 2500)
          assert.strictEqual(again.status, 200)
          const other = yield* deposit(app, "banking-b", "dep_1", teamId, 100)
          assert.strictEqual(other.status, 200)
          const third = yield* deposit(app, "banking-c", "dep_2", teamId, 400)
          assert.strictEqual(third.status, 200)
          yield* settle()
          assert.strictEqual(yield* liveBalance(teamId), 3000)
          yield* settle()
          assert.strictEqual(yield* liveBalance(teamId), 3000, "redeliveries never credit again")
        })
      )
    )

    it.effect("two processes sharing the store credit each of many deposits exactly once", () =>
      Effect.gen(function* () {
        const context = yield* Effect.context<never>()
        const one = yield* serveApp(context, appEnv())
        const two = yield* serveApp(context, appEnv())
        const { teamId } = yield* newTeam(one)
        const ids = Array.from({ length: 12 }, (_, i) => `dep_multi_${i}`)
        const [answers] = yield* Effect.all(
          [
            Effect.forEach(
              ids.flatMap((id, i) => [one, two, i % 2 === 0 ? one : two].map((app) => [app, id] as const)),
              ([app, id]) => deposit(app, "banking-c", id, teamId, 100),
              { concurrency: "unbounded" }
            ),
            settle(2).pipe(Effect.repeat({ times: 11 }))
          ],
          { concurrency: "unbounded" }
        )
        assert.isTrue(answers.every((a) => a.status === 200))
        yield* settle(2)
        assert.strictEqual(yield* liveBalance(teamId), 1200)
        yield* settle(2)
        assert.strictEqual(yield* liveBalance(teamId), 1200)
      }).pipe(Effect.scoped)
    )

    it.effect("an event acknowledged by a process that then dies is processed by the next one", () =>
      Effect.gen(function* () {
        const context = yield* Effect.context<never>()
        const first = yield* serveApp(context, appEnv())
        const { teamId } = yield* newTeam(first)
        const answer = yield* deposit(first, "banking-a", "dep_restart", teamId, 700)
        assert.strictEqual(answer.status, 200)
        yield* first.stop
        assert.strictEqual(yield* liveBalance(teamId), 0, "nothing processed while no worker ran")
        yield* settle()
        assert.strictEqual(yield* liveBalance(teamId), 700)
      }).pipe(Effect.scoped)
    )

    it.effect("a poison event is parked after the configured attempts and listed for operators", () =>
      withApp(appEnv(), (app) =>
        Effect.gen(function* () {
          const store = yield* InboundEventStore
          const missing = crypto.randomUUID()
          const body = JSON.stringify({
            id: "kyc_poison",
            type: "check.completed",
            data: { entity_id: missing, result: "clear" }
          })
          const answer = yield* post(app, "/webhook/kyc-d", body, yield* Effect.promise(() => sign("kyc-d", body)))
          assert.strictEqual(answer.status, 200)
          yield* settle()
          const parked = yield* Effect.flatMap(pageRequest(undefined, 100), (page) =>
            store.list({ status: "parked" }, page)
          )
          const row = parked.find((r) => r.providerEventId === "kyc_poison")!
          assert.isDefined(row, "the poison event is listed")
          assert.strictEqual(row.attempts, 3)
          assert.include(row.lastError ?? "", "no managed entity")
          const badDeposit = yield* deposit(app, "banking-a", "dep_unknown_team", crypto.randomUUID(), 100)
          assert.strictEqual(badDeposit.status, 200)
          yield* settle()
          const parkedDeposit = yield* Effect.flatMap(pageRequest(undefined, 100), (page) =>
            store.list({ status: "parked" }, page)
          )
          assert.strictEqual(
            parkedDeposit.find((r) => r.providerEventId === "dep_unknown_team")?.attempts,
            1,
            "a permanent failure parks at once"
          )
        })
      )
    )

    it.effect("KYC, bank connection, billing and inbox events update their records", () =>
      withApp(appEnv(), (app) =>
        Effect.gen(function* () {
          const { teamId } = yield* newTeam(app)
          const entities = yield* ManagedEntitiesRepo
          const entityId = crypto.randomUUID()
          yield* entities.insert(unverifiedEntity(entityId, teamId))
          const kyc = (endpoint: string, type: string, data: object) =>
            Effect.gen(function* () {
              const body = JSON.stringify({
                id: `k_${crypto.randomUUID()}`,
                type,
                data: { entity_id: entityId, ...data }
              })
              const answer = yield* post(app, pathOf(endpoint), body, yield* Effect.promise(() => sign(endpoint, body)))
              assert.strictEqual(answer.status, 200)
            })
          const status = entities.find(entityId).pipe(Effect.map((e) => Option.getOrThrow(e).kycStatus))
          yield* kyc("kyc-c", "inquiry.completed", {})
          yield* settle()
          assert.strictEqual(yield* status, "in_review")
          yield* kyc("kyc-a", "applicantReviewed", { review_answer: "RED" })
          yield* settle()
          assert.strictEqual(yield* status, "rejected")
          yield* kyc("kyc-b", "decision", { status: "approved" })
          yield* settle()
          assert.strictEqual(yield* status, "approved")

          const connections = yield* BankConnectionsRepo
          const now = new Date().toISOString()
          yield* connections.insert({
            id: crypto.randomUUID(),
            teamId,
            provider: "bank-aggregator-b",
            externalId: "enr_1",
            status: "connected",
            createdAt: now,
            updatedAt: now
          })
          const enrollment = JSON.stringify({
            id: "ev_enr",
            type: "enrollment.disconnected",
            data: { enrollment_id: "enr_1" }
          })
          assert.strictEqual(
            (yield* post(
              app,
              "/webhook/bank-aggregator-b",
              enrollment,
              yield* Effect.promise(() => sign("bank-aggregator-b", enrollment))
            )).status,
            200
          )
          yield* settle()
          assert.strictEqual(
            Option.getOrThrow(yield* connections.findByExternalId("bank-aggregator-b", "enr_1")).status,
            "disconnected"
          )

          const plans = yield* TeamPlansRepo
          const sub = JSON.stringify({
            type: "subscription.updated",
            data: { team_id: teamId, plan: "pro", status: "active" }
          })
          const subHeaders = yield* Effect.promise(() => sign("billing-a", sub, { id: "msg_sub_1" }))
          const billed = yield* post(app, "/webhook/billing-a", sub, subHeaders)
          assert.strictEqual(billed.status, 200)
          assert.strictEqual(
            Option.getOrThrow(yield* plans.find(teamId)).plan,
            "pro",
            "billing is applied before the answer"
          )
          assert.strictEqual(
            (yield* post(app, "/webhook/billing-a", sub, subHeaders)).status,
            200,
            "a redelivery is acknowledged"
          )
          const unknown = JSON.stringify({
            type: "subscription.updated",
            data: { team_id: crypto.randomUUID(), plan: "pro", status: "active" }
          })
          const failed = yield* post(
            app,
            "/webhook/billing-a",
            unknown,
            yield* Effect.promise(() => sign("billing-a", unknown))
          )
          assert.strictEqual(failed.status, 500, "a processing failure answers 500 so the provider retries")
          assert.strictEqual(failed.body.error, "processing_failed")

          const inbox = yield* InboxItemsRepo
          const mail = JSON.stringify({
            MessageID: "m-1",
            From: "billing@vendor.example",
            To: `${teamId}@inbox.svc.test`,
            Subject: "Invoice",
            TextBody: "see attached",
            Attachments: [
              {
                Name: "invoice.pdf",
                ContentType: "application/pdf",
                Content: Buffer.from("%PDF-1.4").toString("base64")
              }
            ]
          })
          const received = yield* post(app, "/webhook/inbox", mail)
          assert.strictEqual(received.status, 200)
          assert.deepStrictEqual(received.body, { success: true })
          assert.strictEqual((yield* post(app, "/webhook/inbox", mail)).status, 200)
          yield* settle()
          const items = yield* inbox.list(teamId, null, { after: Option.none(), limit: 100 })
          assert.strictEqual(items.length, 1)
          assert.strictEqual(items[0]!.subject, "Invoice")
          assert.deepStrictEqual(items[0]!.attachments, [
            {
              filename: "invoice.pdf",
              contentType: "application/pdf",
              size: 8,
              path: `vault/${teamId}/inbox/${items[0]!.id}/1`,
              skipped: null
            }
          ])
          const invalid = yield* post(app, "/webhook/inbox", JSON.stringify({ From: 3, To: "x@y" }))
          assert.strictEqual(invalid.status, 400)
          assert.strictEqual(invalid.body.error, "invalid_payload")
          assert.includeMembers(
            invalid.body.errors.map((e: { path: string }) => e.path),
            ["MessageID", "From"]
          )
        })
      )
    )
  })

import { assert, layer } from "@effect/vitest"
import { InboundRunner, InboundRunnerLive, WebhooksConfigLive } from "@svc/adapters-webhooks"
import {
  BankConnectionsRepo,
  InboundEventStore,
  InboxItemsRepo,
  Ledger,
  ManagedEntitiesRepo,
  pageRequest,
  type TeamId,
  TeamPlansRepo
} from "@svc/domain"
import { ConfigProvider, Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { sessionToken } from "../support/InProcessApp.ts"
import type { WebhookPorts } from "../support/WebhooksHarness.ts"
import {
  type Answer,
  baseEnv,
  call,
  post,
  type RunningApp,
  SECRETS,
  serveApp,
  sign
} from "../support/WebhooksHarness.ts"

const SUCCESS: Record<string, object> = {
  inbox: { success: true },
  "bank-aggregator-a": { success: true },
  "bank-aggregator-b": { success: true },
  "social-premium-payments": { received: true, handled: false },
  "chat-interactions": { ok: true },
  "card-issuing-a/auth-stream": { approve_response: "DECLINED", decline_reason: "card_issuing_unavailable" }
}

const SIGNED = Object.keys(SECRETS).concat("bank-aggregator-a")
const TIMESTAMPED = new Set([
  "banking-b",
  "card-issuing-a",
  "card-issuing-a/auth-stream",
  "billing-a",
  "bank-aggregator-a",
  "bank-aggregator-b",
  "payments",
  "payments-identity",
  "payments-issuing",
  "kyc-c",
  "chat-interactions"
])
const UNAUTHORIZED_401 = new Set(["bank-aggregator-a", "bank-aggregator-b"])
const NOT_CONFIGURED_503 = new Set(["banking-a", "banking-b", "banking-c"])
const pathOf = (name: string) => (name === "chat-interactions" ? "/apps/chat/interactions" : `/webhook/${name}`)

const bodyFor = (name: string, id: string) =>
  name === "card-issuing-a/auth-stream"
    ? JSON.stringify({ id, card_token: "card_1", amount: 1200, currency: "USD", merchant: { name: "Shop" } })
    : JSON.stringify({ id, type: "something.happened", data: { note: "hi" } })

/** A test app's environment: its inbound worker is off, so the tests run the worker's step themselves. */
const appEnv = (overrides: Record<string, string | undefined> = {}) => baseEnv({ WEBHOOK_WORKERS: "off", ...overrides })

/**
 * What inbound workers do over time, without waiting: `workers` concurrent runs of the worker's step, on a test clock
 * moved past the longest retry delay after each round, until no stored event is due (each is processed or parked).
 */
const settle = (workers = 1) =>
  Effect.gen(function* () {
    const runner = yield* InboundRunner
    yield* TestClock.setTime(Date.now())
    while (true) {
      const taken = yield* Effect.all(
        Array.from({ length: workers }, () => runner.runDue),
        { concurrency: "unbounded" }
      )
      if (taken.every((n) => n === 0)) return
      yield* TestClock.adjust(runner.policy.maxDelayMs)
    }
  }).pipe(Effect.provide(TestClock.layer()))

const tamper = (body: string) => body.replace("hi", "ho").replace("1200", "9999")

/** Stored iff recording the same (endpoint, provider id) again reports a duplicate. */
const isStored = (endpoint: string, providerEventId: string) =>
  Effect.gen(function* () {
    const store = yield* InboundEventStore
    const probe = yield* store.record({
      id: crypto.randomUUID(),
      endpoint,
      providerEventId,
      type: "probe",
      payload: {},
      status: "processed",
      attempts: 0,
      nextAttemptAt: new Date().toISOString(),
      lastError: null,
      receivedAt: new Date().toISOString(),
      processedAt: null
    })
    return probe.duplicate
  })

const newTeam = (app: RunningApp) =>
  Effect.gen(function* () {
    const token = yield* Effect.promise(() => sessionToken())
    const created = yield* call(app, "POST", "/teams", token, { name: "Acme" })
    assert.strictEqual(created.status, 201)
    return { teamId: created.body.id as TeamId, token }
  })

const liveBalance = (teamId: TeamId) =>
  Effect.gen(function* () {
    const ledger = yield* Ledger
    const [account] = yield* ledger.accounts(teamId, { mode: "live", kind: "spend" })
    return account!.balance.posted
  })

const deposit = (app: RunningApp, endpoint: string, eventId: string, teamId: string, amount: number) =>
  Effect.gen(function* () {
    const body = JSON.stringify({
      id: eventId,
      type: "deposit.received",
      data: { team_id: teamId, amount, currency: "USD" }
    })
    const headers = yield* Effect.promise(() => sign(endpoint, body, { id: eventId }))
    return yield* post(app, pathOf(endpoint), body, headers)
  })

/** The inbound webhook scenarios, over whichever ports the caller provides (memory or Postgres). */
export const inboundSuite = <E>(name: string, ports: Layer.Layer<WebhookPorts, E>) =>
  layer(
    InboundRunnerLive.pipe(
      Layer.provideMerge(Ledger.layer.pipe(Layer.provideMerge(ports))),
      Layer.provide(WebhooksConfigLive.pipe(Layer.provide(ConfigProvider.layer(ConfigProvider.fromUnknown(appEnv())))))
    ),
    { timeout: "120 seconds", excludeTestServices: true }
  )(`inbound webhooks (${name})`, (it) => {
    const withApp = <A, E2, R>(env: Record<string, string>, f: (app: RunningApp) => Effect.Effect<A, E2, R>) =>
      Effect.gen(function* () {
        const context = yield* Effect.context<never>()
        const app = yield* serveApp(context, env)
        return yield* f(app)
      }).pipe(Effect.scoped)

    it.effect("every endpoint accepts a valid signature, stores the event and refuses forged or stale requests", () =>
      withApp(appEnv(), (app) =>
        Effect.gen(function* () {
          for (const endpoint of SIGNED) {
            const id = `evt_${crypto.randomUUID()}`
            const body = bodyFor(endpoint, id)
            const headers = yield* Effect.promise(() => sign(endpoint, body, { id }))
            const ok = yield* post(app, pathOf(endpoint), body, headers)
            assert.strictEqual(ok.status, 200, `${endpoint} accepts a valid signature: ${JSON.stringify(ok.body)}`)
            assert.deepStrictEqual(ok.body, SUCCESS[endpoint] ?? { received: true }, endpoint)
            assert.isTrue(yield* isStored(endpoint, id), `${endpoint} stored the event`)

            const bad = UNAUTHORIZED_401.has(endpoint) ? 401 : 400
            const check = (answer: Answer, what: string) => {
              assert.strictEqual(answer.status, bad, `${endpoint} ${what}: ${JSON.stringify(answer.body)}`)
              assert.isString(answer.body.error, `${endpoint} ${what} names the error`)
            }
            const forgedId = `evt_${crypto.randomUUID()}`
            const forged = bodyFor(endpoint, forgedId)
            const forgedHeaders = yield* Effect.promise(() => sign(endpoint, forged, { id: forgedId }))
            if (endpoint !== "social-premium-payments") {
              check(yield* post(app, pathOf(endpoint), tamper(forged), forgedHeaders), "tampered body")
            }
            const wrong = yield* Effect.promise(() =>
              sign(endpoint, forged, {
                id: forgedId,
                secret:
                  endpoint.startsWith("banking-b") || endpoint.startsWith("card")
                    ? "whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
                    : "wrong-secret"
              })
            )
            check(yield* post(app, pathOf(endpoint), forged, wrong), "wrong secret")
            check(yield* post(app, pathOf(endpoint), forged, {}), "missing header")
            if (TIMESTAMPED.has(endpoint)) {
              const stale = yield* Effect.promise(() =>
                sign(endpoint, forged, { id: forgedId, timestamp: Math.floor(Date.now() / 1000) - 3600 })
              )
              check(yield* post(app, pathOf(endpoint), forged, stale), "stale timestamp")
            }
            assert.isFalse(yield* isStored(endpoint, forgedId), `${endpoint} stored nothing unverified`)
          }
        })
      )
    )

    it.effect("an endpoint without a configured secret answers 503 or 400 as SPEC.md says and stores nothing", () =>
      withApp(
        appEnv(
          Object.fromEntries(
            Object.keys(baseEnv())
              .filter(
                (k) =>
                  k.startsWith("WEBHOOK_SECRET_") ||
                  k === "CHAT_SIGNING_SECRET" ||
                  k === "BANK_AGGREGATOR_A_JWKS" ||
                  k === "INBOX_ALLOWED_IPS"
              )
              .map((k) => [k, undefined])
          )
        ),
        (app) =>
          Effect.gen(function* () {
            for (const endpoint of [...SIGNED, "inbox"]) {
              const id = `evt_${crypto.randomUUID()}`
              const body = bodyFor(endpoint, id)
              const headers = yield* Effect.promise(() => sign(endpoint, body, { id }))
              const answer = yield* post(app, pathOf(endpoint), body, headers)
              assert.strictEqual(answer.status, NOT_CONFIGURED_503.has(endpoint) ? 503 : 400, endpoint)
              assert.strictEqual(answer.body.error, "secret_not_configured", endpoint)
              assert.isFalse(yield* isStored(endpoint, id), endpoint)
            }
          })
      )
    )

    it.effect("payloads without the envelope are 400, and bodies over 1 MiB are 413", () =>
      withApp(appEnv(), (app) =>
        Effect.gen(function* () {
          for (const body of ["not json", "[]", JSON.stringify({ type: "x" }), JSON.stringify({ id: "e1" })]) {
            const answer = yield* post(app, "/webhook/kyc-b", body, yield* Effect.promise(() => sign("kyc-b", body)))
            assert.strictEqual(answer.status, 400, body)
            assert.strictEqual(answer.body.error, "invalid_payload")
          }
          const noType = JSON.stringify({ data: {} })
          const sw = yield* post(
            app,
            "/webhook/banking-b",
            noType,
            yield* Effect.promise(() => sign("banking-b", noType))
          )
          assert.strictEqual(sw.status, 400)
          const huge = JSON.stringify({ id: "big", type: "x", data: "a".repeat(1024 * 1024) })
          const tooBig = yield* post(app, "/webhook/kyc-b", huge, yield* Effect.promise(() => sign("kyc-b", huge)))
          assert.strictEqual(tooBig.status, 413)
          assert.strictEqual(tooBig.body.error, "payload_too_large")
        })
      )
    )

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
          const parked = yield* Effect.flatMap(pageRequest(undefined, 100), (page) => store.listParked(page))
          const row = parked.find((r) => r.providerEventId === "kyc_poison")!
          assert.isDefined(row, "the poison event is listed")
          assert.strictEqual(row.attempts, 3)
          assert.include(row.lastError ?? "", "no managed entity")
          const badDeposit = yield* deposit(app, "banking-a", "dep_unknown_team", crypto.randomUUID(), 100)
          assert.strictEqual(badDeposit.status, 200)
          yield* settle()
          const parkedDeposit = yield* Effect.flatMap(pageRequest(undefined, 100), (page) => store.listParked(page))
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
          yield* entities.insert({
            id: entityId,
            teamId,
            name: "Jane",
            kycStatus: "not_started",
            kycProvider: null,
            kycUpdatedAt: null,
            createdAt: new Date().toISOString()
          })
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
          const items = yield* inbox.list(teamId)
          assert.strictEqual(items.length, 1)
          assert.strictEqual(items[0]!.subject, "Invoice")
          assert.deepStrictEqual(items[0]!.attachments, [
            { filename: "invoice.pdf", contentType: "application/pdf", size: 8 }
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

    it.effect("the inbox refuses a source address outside INBOX_ALLOWED_IPS with 403", () =>
      withApp(appEnv({ INBOX_ALLOWED_IPS: "10.0.0.0/8" }), (app) =>
        Effect.gen(function* () {
          const mail = JSON.stringify({ MessageID: "m-2", From: "a@b.c", To: "x@y.z" })
          const answer = yield* post(app, "/webhook/inbox", mail)
          assert.strictEqual(answer.status, 403)
          assert.strictEqual(answer.body.error, "forbidden_ip")
          assert.isFalse(yield* isStored("inbox", "m-2"))
        })
      )
    )
  })

import { assert, layer } from "@effect/vitest"
import { makeSimulatedRail } from "@svc/adapters-memory"
import { deliverOnce, OutboundWebhooksLive } from "@svc/adapters-webhooks"
import { webhooksSettings } from "@svc/api"
import { CryptoPayouts, Ledger, PayoutRail, WebhookDispatcher } from "@svc/domain"
import { ConfigProvider, Context, Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { Webhook } from "standardwebhooks"
import { sessionToken, testConfig } from "../support/InProcessApp.ts"
import { receiver } from "../support/Receiver.ts"
import { type Answer, baseEnv, type RunningApp, serveApp, type WebhookPorts } from "../support/WebhooksHarness.ts"
import { ADDRESSES } from "./CryptoSetup.ts"

/** The suite's test clock starts at the real time, which the standardwebhooks verifier checks signatures against. */
const ClockAtRealTime = Layer.effectDiscard(Effect.suspend(() => TestClock.setTime(Date.now())))

/** A JSON call to the served app; every POST carries a fresh Idempotency-Key. */
const http = (app: RunningApp, method: string, path: string, token: string, body?: unknown) =>
  Effect.promise(async (): Promise<Answer> => {
    const response = await fetch(`${app.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(method === "POST" ? { "idempotency-key": crypto.randomUUID() } : {}),
        ...(body === undefined ? {} : { "content-type": "application/json" })
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const text = await response.text()
    return { status: response.status, body: text === "" ? null : JSON.parse(text) }
  })

/** Payout events reach the team's webhook endpoint with the payout's view; over the caller's ports. */
export const payoutWebhooksSuite = <E>(name: string, ports: Layer.Layer<WebhookPorts, E>) =>
  layer(ports.pipe(Layer.provide(ClockAtRealTime)), { timeout: "120 seconds" })(
    `crypto payout webhooks (${name})`,
    (it) => {
      it.effect("the endpoint receives created, submitted, confirmed, failed and canceled, never the payload", () =>
        Effect.gen(function* () {
          const env = baseEnv()
          const context = yield* Effect.context<WebhookPorts>()
          // The app's own payout worker waits an hour between rounds: the test runs the rounds.
          const app = yield* serveApp(
            context,
            { ...env, WEBHOOK_WORKERS: "off" },
            {
              ...testConfig,
              cryptoWorkerIntervalSeconds: 3_600
            }
          )
          const outbound = yield* Layer.build(
            OutboundWebhooksLive.pipe(
              Layer.provide(Layer.succeedContext(context)),
              Layer.provide(Layer.fresh(webhooksSettings)),
              Layer.provide(ConfigProvider.layer(ConfigProvider.fromUnknown(env)))
            )
          )
          const dispatcher = Context.get(outbound, WebhookDispatcher)
          const rail = yield* makeSimulatedRail({
            failure: (t) => (t.address === ADDRESSES.otherEvm ? "execution reverted" : undefined)
          })
          const worker = yield* CryptoPayouts.make.pipe(
            Effect.provideService(PayoutRail, rail),
            Effect.provide(Ledger.layer),
            Effect.provide(context)
          )
          const hook = yield* receiver(() => ({ status: 204 }))

          const owner = yield* Effect.promise(() => sessionToken())
          assert.strictEqual((yield* http(app, "POST", "/teams", owner, { name: "Team" })).status, 201)
          const key = yield* http(app, "POST", "/treasury/spending-keys", owner, {
            name: "a",
            mode: "test",
            policy: {}
          })
          const secret = key.body.secret as string
          yield* http(app, "POST", "/v1/test-helpers/deposits", secret, { amount: 50_000, currency: "USD" })
          const endpoint = yield* http(app, "POST", "/treasury/webhook-endpoints", owner, {
            url: hook.url,
            eventTypes: [
              "crypto_payout.created",
              "crypto_payout.submitted",
              "crypto_payout.confirmed",
              "crypto_payout.failed",
              "crypto_payout.canceled"
            ]
          })
          assert.strictEqual(endpoint.status, 201, JSON.stringify(endpoint.body))
          const payOutTo = (address: string) =>
            Effect.gen(function* () {
              const destination = yield* http(app, "POST", "/treasury/crypto/destinations", owner, {
                name: "Wallet",
                network: "base",
                asset: "USDC",
                address,
                mode: "test"
              })
              const quote = yield* http(app, "POST", "/v1/crypto/quotes", secret, {
                amount: 1_000,
                currency: "USD",
                asset: "USDC",
                network: "base",
                destinationId: destination.body.id
              })
              const payout = yield* http(app, "POST", "/v1/crypto/payouts", secret, { quoteId: quote.body.id })
              assert.strictEqual(payout.status, 201, JSON.stringify(payout.body))
              return payout.body.id as string
            })
          const paid = yield* payOutTo(ADDRESSES.evm)
          const reverted = yield* payOutTo(ADDRESSES.otherEvm)
          const canceled = yield* payOutTo(ADDRESSES.evm)
          assert.strictEqual((yield* http(app, "POST", `/v1/crypto/payouts/${canceled}/cancel`, secret)).status, 200)
          yield* worker.processDue
          yield* worker.processDue

          for (let steps = 0; ; steps++) {
            if ((yield* deliverOnce.pipe(Effect.provideService(WebhookDispatcher, dispatcher))) === 0) break
            if (steps === 10) return yield* Effect.die(new Error("deliveries still due after 10 steps"))
            yield* TestClock.adjust("5 seconds")
          }
          const events = hook.received.map(
            (r) =>
              new Webhook(endpoint.body.secret).verify(r.body, r.headers) as {
                type: string
                data: Record<string, unknown>
              }
          )
          const of = (id: string) =>
            events
              .filter((e) => e.data.id === id)
              .map((e) => `${e.type}:${e.data.status}`)
              .toSorted()
          assert.deepStrictEqual(of(paid), [
            "crypto_payout.confirmed:confirmed",
            "crypto_payout.created:pending",
            "crypto_payout.submitted:submitted"
          ])
          assert.deepStrictEqual(of(reverted), [
            "crypto_payout.created:pending",
            "crypto_payout.failed:failed",
            "crypto_payout.submitted:submitted"
          ])
          assert.deepStrictEqual(of(canceled), ["crypto_payout.canceled:canceled", "crypto_payout.created:pending"])
          for (const e of events) {
            assert.strictEqual(e.data.object, "crypto_payout")
            assert.notProperty(e.data, "payload")
          }
        }).pipe(Effect.scoped)
      )
    }
  )

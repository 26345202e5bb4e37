import { assert, layer } from "@effect/vitest"
import { deliverOnce, OutboundWebhooksLive } from "@svc/adapters-webhooks"
import { webhooksSettings } from "@svc/api"
import { WebhookDispatcher } from "@svc/domain"
import { ConfigProvider, Context, Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { Webhook } from "standardwebhooks"
import { sessionToken } from "../support/InProcessApp.ts"
import { receiver } from "../support/Receiver.ts"
import { baseEnv, clientOver, serveApp, type WebhookPorts } from "../support/WebhooksHarness.ts"
import { intentBody } from "./CheckoutHttpSetup.ts"

/** The suite's test clock starts at the real time, which the standardwebhooks verifier checks signatures against. */
const ClockAtRealTime = Layer.effectDiscard(Effect.suspend(() => TestClock.setTime(Date.now())))

const HELPERS = "/v1/test-helpers/checkout"

/** What the issuer's auth-stream would carry for a purchase at the intent's merchant. */
const purchase = (amount: number, overrides: Record<string, unknown> = {}) => ({
  amount,
  currency: "USD",
  merchant: { descriptor: "ACME BOOKS #42", mcc: "5942", country: "US" },
  ...overrides
})

/**
 * The whole test-mode checkout life driven through `/v1/test-helpers/checkout` only (no database access, no issuer):
 * after each step the balance, the ledger's holds and postings, and the outbound events are exactly what the issuer's
 * own requests leave; over the caller's ports.
 */
export const checkoutTestHelpersSuite = <E>(name: string, ports: Layer.Layer<WebhookPorts, E>) =>
  layer(ports.pipe(Layer.provide(ClockAtRealTime)), { timeout: "120 seconds" })(
    `checkout test helpers (${name})`,
    (it) => {
      /** The app served over the suite's ports, its client, a team with a funded test key, and its webhook receiver. */
      const setUp = (funds: number) =>
        Effect.gen(function* () {
          const env = baseEnv({ WEBHOOK_WORKERS: "off" })
          const context = yield* Effect.context<WebhookPorts>()
          const served = yield* serveApp(context, env)
          const app = clientOver(served)
          const outbound = yield* Layer.build(
            OutboundWebhooksLive.pipe(
              Layer.provide(Layer.succeedContext(context)),
              Layer.provide(Layer.fresh(webhooksSettings)),
              Layer.provide(ConfigProvider.layer(ConfigProvider.fromUnknown(env)))
            )
          )
          const dispatcher = Context.get(outbound, WebhookDispatcher)
          const hook = yield* receiver(() => ({ status: 204 }))
          const call = (method: string, path: string, token: string, body?: unknown, headers = {}) =>
            Effect.promise(() =>
              app.call(method, path, {
                token,
                ...(body === undefined ? {} : { body }),
                headers: method === "POST" ? { "idempotency-key": crypto.randomUUID(), ...headers } : headers
              })
            )
          const owner = yield* Effect.promise(() => sessionToken())
          assert.strictEqual((yield* call("POST", "/teams", owner, { name: "Team" })).status, 201)
          const keyOf = (mode: "test" | "live") =>
            Effect.map(call("POST", "/treasury/spending-keys", owner, { name: mode, mode, policy: {} }), (k) => {
              assert.strictEqual(k.status, 201)
              return k.body.secret as string
            })
          const key = yield* keyOf("test")
          const live = yield* keyOf("live")
          if (funds > 0) {
            const deposit = yield* call("POST", "/v1/test-helpers/deposits", key, { amount: funds, currency: "USD" })
            assert.strictEqual(deposit.status, 201)
          }
          const endpoint = yield* call("POST", "/treasury/webhook-endpoints", owner, {
            url: hook.url,
            eventTypes: ["*"]
          })
          assert.strictEqual(endpoint.status, 201, JSON.stringify(endpoint.body))
          const verifier = new Webhook(endpoint.body.secret as string)
          let seen = 0

          /** The checkout events delivered since the last call, as `type:status`, in order. */
          const newEvents = Effect.gen(function* () {
            for (let steps = 0; ; steps++) {
              if ((yield* deliverOnce.pipe(Effect.provideService(WebhookDispatcher, dispatcher))) === 0) break
              if (steps === 10) return yield* Effect.die(new Error("deliveries still due after 10 steps"))
              yield* TestClock.adjust("5 seconds")
            }
            const events = hook.received
              .slice(seen)
              .map((r) => verifier.verify(r.body, r.headers) as { type: string; data: { status: string } })
            seen = hook.received.length
            return events
              .filter((e) => e.type.startsWith("checkout_intent."))
              .map((e) => `${e.type}:${e.data.status}`)
              .toSorted()
          })

          const balance = Effect.map(call("GET", "/v1/balance", key), ({ body }) => ({
            posted: body.posted,
            pending: body.pending,
            available: body.available
          }))

          /**
           * The card movements on the key's account, oldest first: `kind code reference posted pending`, the sums of its
           * posted and pending entries (a hold reserves with a negative pending entry; posting it releases that).
           */
          const movements = Effect.gen(function* () {
            const accountId = (yield* call("GET", "/v1/balance", key)).body.accountId as string
            const ledger = yield* call("GET", `/treasury/ledger?accountId=${accountId}&limit=100`, owner)
            assert.strictEqual(ledger.status, 200, JSON.stringify(ledger.body))
            const sum = (
              entries: ReadonlyArray<{ accountId: string; amount: number; pending: boolean }>,
              pending: boolean
            ) =>
              entries
                .filter((e) => e.accountId === accountId && e.pending === pending)
                .reduce((s, e) => s + e.amount, 0)
            return (
              ledger.body.data as ReadonlyArray<{
                kind: string
                code: string
                reference: string
                entries: ReadonlyArray<{ accountId: string; amount: number; pending: boolean }>
              }>
            )
              .filter((t) => t.code.startsWith("card_"))
              .map(
                (t) =>
                  `${t.kind} ${t.code} ${t.reference.split(":")[0]} ${sum(t.entries, false)} ${sum(t.entries, true)}`
              )
              .toReversed()
          })

          const intentOf = (id: string) => Effect.map(call("GET", `/v1/checkout/intents/${id}`, key), (a) => a.body)

          /** An approved intent of `amount` at Acme Books with its card issued: the intent's and the card's ids. */
          const intentWithCard = (amount: number) =>
            Effect.gen(function* () {
              const created = yield* call("POST", "/v1/checkout/intents", key, intentBody({ amount }))
              assert.strictEqual(created.status, 201, JSON.stringify(created.body))
              assert.strictEqual(created.body.status, "approved")
              const card = yield* call("POST", `/v1/checkout/intents/${created.body.id}/credentials`, key)
              assert.strictEqual(card.status, 200, JSON.stringify(card.body))
              return { intentId: created.body.id as string, cardId: card.body.cardId as string }
            })

          return { call, key, live, owner, balance, movements, newEvents, intentOf, intentWithCard }
        })

      it.effect(
        "authorize, advise up and down, clear partially and fully, reverse, close a card: money and events as the issuer's",
        () =>
          Effect.gen(function* () {
            const t = yield* setUp(10_000)
            const { call, key } = t
            assert.deepStrictEqual(yield* t.newEvents, [])

            const a = yield* t.intentWithCard(2_500)
            assert.deepStrictEqual(yield* t.newEvents, [
              "checkout_intent.card_issued:approved",
              "checkout_intent.created:approved"
            ])

            const authorized = yield* call("POST", `${HELPERS}/cards/${a.cardId}/authorizations`, key, purchase(2_400))
            assert.strictEqual(authorized.status, 201, JSON.stringify(authorized.body))
            const authorization = authorized.body
            assert.deepStrictEqual(authorization, {
              object: "card_authorization",
              id: authorization.id,
              cardId: a.cardId,
              intentId: a.intentId,
              decision: "APPROVED",
              declineReason: null,
              status: "approved",
              amount: 2_400,
              heldAmount: 2_400,
              refundedAmount: 0,
              currency: "USD",
              merchant: { descriptor: "ACME BOOKS #42", mcc: "5942", country: "US" },
              createdAt: authorization.createdAt,
              updatedAt: authorization.createdAt
            })
            assert.deepStrictEqual(yield* t.balance, { posted: 10_000, pending: 2_400, available: 7_600 })
            assert.deepStrictEqual(yield* t.movements, [`pending card_authorization ${authorization.id} 0 -2400`])
            assert.deepStrictEqual(yield* t.newEvents, ["checkout_intent.authorized:authorized"])
            assert.deepInclude(yield* t.intentOf(a.intentId), { status: "authorized", authorizedAmount: 2_400 })

            const advice = `${HELPERS}/authorizations/${authorization.id}/advice`
            const up = yield* call("POST", advice, key, { amount: 2_600 })
            assert.strictEqual(up.status, 200, JSON.stringify(up.body))
            assert.deepInclude(up.body, { status: "approved", amount: 2_400, heldAmount: 2_600 })
            assert.deepStrictEqual(yield* t.balance, { posted: 10_000, pending: 2_600, available: 7_400 })
            assert.deepInclude(yield* t.intentOf(a.intentId), { status: "authorized", authorizedAmount: 2_600 })
            const overdrawn = yield* call("POST", advice, key, { amount: 10_001 })
            assert.strictEqual(overdrawn.status, 409, JSON.stringify(overdrawn.body))
            assert.deepInclude(overdrawn.body, { error: "card_advice_unmatched", code: 409 })
            assert.deepStrictEqual(yield* t.balance, { posted: 10_000, pending: 2_600, available: 7_400 })
            const down = yield* call("POST", advice, key, { amount: 2_200 })
            assert.deepInclude(down.body, { status: "approved", heldAmount: 2_200 })
            assert.deepStrictEqual(yield* t.balance, { posted: 10_000, pending: 2_200, available: 7_800 })
            assert.deepStrictEqual(yield* t.movements, [
              `pending card_authorization ${authorization.id} 0 -2400`,
              `void_pending card_authorization ${authorization.id} 0 2400`,
              `pending card_authorization ${authorization.id} 0 -2600`,
              `void_pending card_authorization ${authorization.id} 0 2600`,
              `pending card_authorization ${authorization.id} 0 -2200`
            ])
            assert.deepStrictEqual(yield* t.newEvents, [], "advice publishes nothing, as the issuer's does")

            const partial = yield* call("POST", `${HELPERS}/authorizations/${authorization.id}/clearing`, key, {
              amount: 2_000
            })
            assert.strictEqual(partial.status, 200, JSON.stringify(partial.body))
            assert.deepInclude(partial.body, { status: "cleared", heldAmount: 0 })
            assert.deepStrictEqual(yield* t.balance, { posted: 8_000, pending: 0, available: 8_000 })
            assert.deepStrictEqual((yield* t.movements).slice(5), [
              `post_pending card_authorization ${authorization.id} -2000 2200`
            ])
            assert.deepStrictEqual(yield* t.newEvents, ["checkout_intent.completed:completed"])
            assert.deepInclude(yield* t.intentOf(a.intentId), {
              status: "completed",
              authorizedAmount: 0,
              capturedAmount: 2_000
            })
            const again = yield* call("POST", `${HELPERS}/authorizations/${authorization.id}/clearing`, key, {})
            assert.strictEqual(again.status, 200, JSON.stringify(again.body))
            assert.deepStrictEqual(again.body, partial.body, "a cleared authorization is cleared once")
            assert.deepStrictEqual(yield* t.balance, { posted: 8_000, pending: 0, available: 8_000 })
            const refunds = `${HELPERS}/authorizations/${authorization.id}/refunds`
            const refunded = yield* call("POST", refunds, key, { amount: 500 })
            assert.strictEqual(refunded.status, 200, JSON.stringify(refunded.body))
            assert.deepInclude(refunded.body, { status: "cleared", heldAmount: 0, refundedAmount: 500 })
            assert.deepStrictEqual(yield* t.balance, { posted: 8_500, pending: 0, available: 8_500 })
            assert.deepStrictEqual((yield* t.movements).slice(6), [`posted card_refund ${authorization.id} 500 0`])
            const tooMuch = yield* call("POST", refunds, key, { amount: 1_501 })
            assert.strictEqual(tooMuch.status, 409, JSON.stringify(tooMuch.body))
            assert.deepInclude(tooMuch.body, { error: "card_refund_unmatched", code: 409 })
            assert.deepStrictEqual(yield* t.balance, { posted: 8_500, pending: 0, available: 8_500 })
            assert.deepStrictEqual(yield* t.newEvents, [], "a refund publishes nothing; the intent stays completed")
            assert.deepInclude(yield* t.intentOf(a.intentId), { status: "completed", capturedAmount: 2_000 })
            const closed = yield* call("POST", `${HELPERS}/cards/${a.cardId}/authorizations`, key, purchase(100))
            assert.deepInclude(closed.body, { decision: "DECLINED", declineReason: "card_inactive", heldAmount: 0 })
            assert.deepStrictEqual(yield* t.balance, { posted: 8_500, pending: 0, available: 8_500 })

            const b = yield* t.intentWithCard(1_000)
            const full = yield* call("POST", `${HELPERS}/cards/${b.cardId}/authorizations`, key, purchase(1_000))
            assert.strictEqual(full.body.decision, "APPROVED")
            const cleared = yield* call("POST", `${HELPERS}/authorizations/${full.body.id}/clearing`, key, {})
            assert.deepInclude(cleared.body, { status: "cleared", heldAmount: 0 })
            assert.deepStrictEqual(yield* t.balance, { posted: 7_500, pending: 0, available: 7_500 })
            assert.deepInclude(yield* t.intentOf(b.intentId), { status: "completed", capturedAmount: 1_000 })
            assert.deepStrictEqual(yield* t.newEvents, [
              "checkout_intent.authorized:authorized",
              "checkout_intent.card_issued:approved",
              "checkout_intent.completed:completed",
              "checkout_intent.created:approved"
            ])

            const c = yield* t.intentWithCard(500)
            const over = yield* call("POST", `${HELPERS}/cards/${c.cardId}/authorizations`, key, purchase(501))
            assert.deepInclude(over.body, {
              decision: "DECLINED",
              declineReason: "amount_over_intent",
              status: "declined"
            })
            const elsewhere = yield* call(
              "POST",
              `${HELPERS}/cards/${c.cardId}/authorizations`,
              key,
              purchase(500, { merchant: { descriptor: "OTHER SHOP", mcc: "5942", country: "US" } })
            )
            assert.deepInclude(elsewhere.body, { decision: "DECLINED", declineReason: "merchant_mismatch" })
            const held = yield* call("POST", `${HELPERS}/cards/${c.cardId}/authorizations`, key, purchase(500))
            assert.strictEqual(held.body.decision, "APPROVED")
            assert.deepStrictEqual(yield* t.balance, { posted: 7_500, pending: 500, available: 7_000 })
            const reversed = yield* call("POST", `${HELPERS}/authorizations/${held.body.id}/advice`, key, {
              amount: 0
            })
            assert.deepInclude(reversed.body, { status: "reversed", heldAmount: 0 })
            assert.deepStrictEqual(yield* t.balance, { posted: 7_500, pending: 0, available: 7_500 })
            assert.deepInclude(yield* t.intentOf(c.intentId), { status: "approved", authorizedAmount: 0 })
            const notCleared = yield* call("POST", `${HELPERS}/authorizations/${held.body.id}/refunds`, key, {
              amount: 100
            })
            assert.strictEqual(notCleared.status, 409, JSON.stringify(notCleared.body))
            assert.strictEqual(notCleared.body.error, "card_refund_unmatched")
            const closing = yield* call("POST", `${HELPERS}/cards/${c.cardId}/status`, key, { status: "closed" })
            assert.strictEqual(closing.status, 200, JSON.stringify(closing.body))
            assert.deepInclude(closing.body, { object: "card", id: c.cardId, intentId: c.intentId, status: "closed" })
            const reopened = yield* call("POST", `${HELPERS}/cards/${c.cardId}/status`, key, { status: "active" })
            assert.strictEqual(reopened.body.status, "closed", "a closed card stays closed")
            const refused = yield* call("POST", `${HELPERS}/cards/${c.cardId}/authorizations`, key, purchase(500))
            assert.deepInclude(refused.body, { decision: "DECLINED", declineReason: "card_inactive" })
            assert.deepStrictEqual(yield* t.balance, { posted: 7_500, pending: 0, available: 7_500 })
            assert.deepStrictEqual(yield* t.newEvents, [
              "checkout_intent.authorized:authorized",
              "checkout_intent.card_issued:approved",
              "checkout_intent.created:approved"
            ])
          }).pipe(Effect.scoped)
      )

      it.effect(
        "a live key is refused 403 and moves nothing; another team's card is 404; bad input 400 naming the field",
        () =>
          Effect.gen(function* () {
            const t = yield* setUp(10_000)
            const other = yield* setUp(10_000)
            const { call, key } = t
            const a = yield* t.intentWithCard(2_500)
            const authorized = yield* call("POST", `${HELPERS}/cards/${a.cardId}/authorizations`, key, purchase(2_000))
            const liveCalls = [
              call("POST", `${HELPERS}/cards/${a.cardId}/authorizations`, t.live, purchase(2_000)),
              call("POST", `${HELPERS}/authorizations/${authorized.body.id}/advice`, t.live, { amount: 0 }),
              call("POST", `${HELPERS}/authorizations/${authorized.body.id}/clearing`, t.live, {}),
              call("POST", `${HELPERS}/authorizations/${authorized.body.id}/refunds`, t.live, { amount: 100 }),
              call("POST", `${HELPERS}/cards/${a.cardId}/status`, t.live, { status: "closed" })
            ]
            for (const refused of yield* Effect.all(liveCalls)) {
              assert.deepStrictEqual(refused.status, 403, JSON.stringify(refused.body))
              assert.deepInclude(refused.body, { error: "forbidden", code: 403 })
            }
            assert.deepStrictEqual(yield* t.balance, { posted: 10_000, pending: 2_000, available: 8_000 })
            assert.deepInclude(yield* t.intentOf(a.intentId), { status: "authorized", authorizedAmount: 2_000 })

            const foreign = [
              call("POST", `${HELPERS}/cards/${a.cardId}/authorizations`, other.key, purchase(2_000)),
              call("POST", `${HELPERS}/authorizations/${authorized.body.id}/advice`, other.key, { amount: 0 }),
              call("POST", `${HELPERS}/authorizations/${authorized.body.id}/clearing`, other.key, {}),
              call("POST", `${HELPERS}/authorizations/${authorized.body.id}/refunds`, other.key, { amount: 100 }),
              call("POST", `${HELPERS}/cards/${a.cardId}/status`, other.key, { status: "closed" }),
              call("POST", `${HELPERS}/cards/${crypto.randomUUID()}/authorizations`, key, purchase(2_000))
            ]
            for (const unknown of yield* Effect.all(foreign)) {
              assert.deepStrictEqual(unknown.status, 404, JSON.stringify(unknown.body))
              assert.deepInclude(unknown.body, { error: "not_found", code: 404 })
            }
            assert.deepStrictEqual(yield* t.balance, { posted: 10_000, pending: 2_000, available: 8_000 })

            const invalid = (
              answer: { status: number; body: { error: string; details: Array<{ path: string }> } },
              path: string
            ) => {
              assert.strictEqual(answer.status, 400, JSON.stringify(answer.body))
              assert.strictEqual(answer.body.error, "validation_failed")
              assert.include(
                answer.body.details.map((d) => d.path),
                path
              )
            }
            const authorize = `${HELPERS}/cards/${a.cardId}/authorizations`
            invalid(yield* call("POST", authorize, key, purchase(0)), "amount")
            invalid(yield* call("POST", authorize, key, purchase(12.5)), "amount")
            invalid(yield* call("POST", authorize, key, purchase(100, { currency: "usd" })), "currency")
            invalid(
              yield* call("POST", authorize, key, purchase(100, { merchant: { descriptor: " ", mcc: "5942" } })),
              "merchant.descriptor"
            )
            invalid(
              yield* call("POST", authorize, key, purchase(100, { merchant: { descriptor: "ACME", mcc: "59" } })),
              "merchant.mcc"
            )
            invalid(yield* call("POST", `${HELPERS}/cards/not-a-card/authorizations`, key, purchase(100)), "params.id")
            invalid(
              yield* call("POST", `${HELPERS}/authorizations/${authorized.body.id}/advice`, key, { amount: -1 }),
              "amount"
            )
            invalid(
              yield* call("POST", `${HELPERS}/authorizations/${authorized.body.id}/clearing`, key, { amount: 0 }),
              "amount"
            )
            invalid(
              yield* call("POST", `${HELPERS}/authorizations/${authorized.body.id}/refunds`, key, { amount: 0 }),
              "amount"
            )
            invalid(yield* call("POST", `${HELPERS}/cards/${a.cardId}/status`, key, { status: "lost" }), "status")
            assert.deepStrictEqual(yield* t.balance, { posted: 10_000, pending: 2_000, available: 8_000 })
          }).pipe(Effect.scoped)
      )

      it.effect("a retry with the same Idempotency-Key answers the first result and moves the money once", () =>
        Effect.gen(function* () {
          const t = yield* setUp(10_000)
          const { call, key } = t
          const a = yield* t.intentWithCard(2_500)
          const path = `${HELPERS}/cards/${a.cardId}/authorizations`
          const headers = { "idempotency-key": crypto.randomUUID() }
          const first = yield* call("POST", path, key, purchase(2_500), headers)
          assert.strictEqual(first.body.decision, "APPROVED")
          const second = yield* call("POST", path, key, purchase(2_500), headers)
          assert.strictEqual(second.status, 201)
          assert.deepStrictEqual(second.body, first.body)
          assert.strictEqual(second.headers.get("idempotent-replayed"), "true")
          const reused = yield* call("POST", path, key, purchase(2_400), headers)
          assert.strictEqual(reused.status, 422, JSON.stringify(reused.body))
          assert.strictEqual(reused.body.error, "idempotency_key_reused")
          assert.deepStrictEqual(yield* t.balance, { posted: 10_000, pending: 2_500, available: 7_500 })
          assert.deepStrictEqual(yield* t.movements, [`pending card_authorization ${first.body.id} 0 -2500`])

          const clearing = `${HELPERS}/authorizations/${first.body.id}/clearing`
          const clearKey = { "idempotency-key": crypto.randomUUID() }
          const cleared = yield* call("POST", clearing, key, { amount: 2_000 }, clearKey)
          assert.strictEqual(cleared.status, 200, JSON.stringify(cleared.body))
          const replayed = yield* call("POST", clearing, key, { amount: 2_000 }, clearKey)
          assert.deepStrictEqual(replayed.body, cleared.body)
          assert.strictEqual(replayed.headers.get("idempotent-replayed"), "true")
          assert.deepStrictEqual(yield* t.balance, { posted: 8_000, pending: 0, available: 8_000 })
          assert.deepStrictEqual(yield* t.movements, [
            `pending card_authorization ${first.body.id} 0 -2500`,
            `post_pending card_authorization ${first.body.id} -2000 2500`
          ])
          const refunds = `${HELPERS}/authorizations/${first.body.id}/refunds`
          const refundKey = { "idempotency-key": crypto.randomUUID() }
          const refund = yield* call("POST", refunds, key, { amount: 300 }, refundKey)
          assert.strictEqual(refund.body.refundedAmount, 300)
          const refundAgain = yield* call("POST", refunds, key, { amount: 300 }, refundKey)
          assert.deepStrictEqual(refundAgain.body, refund.body)
          assert.strictEqual(refundAgain.headers.get("idempotent-replayed"), "true")
          assert.deepStrictEqual(yield* t.balance, { posted: 8_300, pending: 0, available: 8_300 })
          assert.deepStrictEqual((yield* t.movements).slice(2), [`posted card_refund ${first.body.id} 300 0`])
          assert.deepStrictEqual(yield* t.newEvents, [
            "checkout_intent.authorized:authorized",
            "checkout_intent.card_issued:approved",
            "checkout_intent.completed:completed",
            "checkout_intent.created:approved"
          ])
        }).pipe(Effect.scoped)
      )

      it.effect(
        "concurrent retries with one Idempotency-Key authorize once: the others replay it or are told to retry",
        () =>
          Effect.gen(function* () {
            const t = yield* setUp(10_000)
            const a = yield* t.intentWithCard(2_500)
            const headers = { "idempotency-key": crypto.randomUUID() }
            const answers = yield* Effect.all(
              Array.from({ length: 8 }, () =>
                t.call("POST", `${HELPERS}/cards/${a.cardId}/authorizations`, t.key, purchase(2_500), headers)
              ),
              { concurrency: "unbounded" }
            )
            const done = answers.filter((x) => x.status === 201)
            const busy = answers.filter((x) => x.status === 409)
            assert.strictEqual(done.length + busy.length, answers.length, JSON.stringify(answers.map((x) => x.body)))
            for (const x of busy) assert.strictEqual(x.body.error, "idempotency_key_in_use")
            assert.isAbove(done.length, 0)
            for (const x of done) assert.deepStrictEqual(x.body, done[0]?.body, "one authorization, replayed")
            assert.strictEqual(done[0]?.body.decision, "APPROVED")
            const retried = yield* t.call(
              "POST",
              `${HELPERS}/cards/${a.cardId}/authorizations`,
              t.key,
              purchase(2_500),
              headers
            )
            assert.deepStrictEqual(retried.body, done[0]?.body)
            assert.deepStrictEqual(yield* t.balance, { posted: 10_000, pending: 2_500, available: 7_500 })
            assert.deepStrictEqual(yield* t.movements, [`pending card_authorization ${done[0]?.body.id} 0 -2500`])
          }).pipe(Effect.scoped)
      )

      it.effect("concurrent simulated authorizations on one single-use card approve at most one", () =>
        Effect.gen(function* () {
          const t = yield* setUp(10_000)
          const a = yield* t.intentWithCard(2_500)
          const answers = yield* Effect.all(
            Array.from({ length: 12 }, () =>
              t.call("POST", `${HELPERS}/cards/${a.cardId}/authorizations`, t.key, purchase(2_500))
            ),
            { concurrency: "unbounded" }
          )
          for (const answer of answers) assert.strictEqual(answer.status, 201, JSON.stringify(answer.body))
          const approved = answers.filter((x) => x.body.decision === "APPROVED")
          assert.strictEqual(approved.length, 1, JSON.stringify(answers.map((x) => x.body.declineReason)))
          assert.deepStrictEqual(
            answers.filter((x) => x.body.decision === "DECLINED").map((x) => x.body.declineReason),
            Array.from({ length: 11 }, () => "intent_not_approved")
          )
          assert.deepStrictEqual(yield* t.balance, { posted: 10_000, pending: 2_500, available: 7_500 })
          assert.deepStrictEqual(yield* t.movements, [`pending card_authorization ${approved[0]?.body.id} 0 -2500`])
        }).pipe(Effect.scoped)
      )
    }
  )

import { assert, layer } from "@effect/vitest"
import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { createClient } from "@svc/sdk"
import { Effect, Layer } from "effect"
import { Webhook } from "standardwebhooks"
import { authorizationRequest, cardTokenOf, intentBody } from "../checkout/CheckoutHttpSetup.ts"
import { sessionToken } from "../support/Session.ts"
import { type Answer, baseEnv, call, post, type RunningApp, SECRETS, withApp } from "../support/WebhooksHarness.ts"

const FUNDS = 10_000
const AUTHORIZED = 2_400
const CARD_ISSUER = new Webhook(SECRETS["card-issuing-a"] ?? "")

/** A request the card issuer signs with the card-issuing-a secret, as its own library does. */
const issuerPost = (app: RunningApp, path: string, payload: unknown, id = `msg_${crypto.randomUUID()}`) => {
  const body = JSON.stringify(payload)
  const headers = {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(Date.now() / 1000)),
    "webhook-signature": CARD_ISSUER.sign(id, new Date(), body)
  }
  return { body, headers, send: (raw = body) => post(app, path, raw, headers) }
}

const ok = (answer: Answer, status = 200) => {
  assert.strictEqual(answer.status, status, JSON.stringify(answer.body))
  return answer.body
}

/** Asks `read` until `done` holds of its answer (the worker runs on its own schedule), for at most ten seconds. */
const eventually = async <A>(read: () => Promise<A>, done: (a: A) => boolean): Promise<A> => {
  const deadline = Date.now() + 10_000
  for (;;) {
    const value = await read()
    if (done(value) || Date.now() > deadline) return value
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

layer(PortsPg.pipe(Layer.provideMerge(TestDatabase)), { timeout: "120 seconds", excludeTestServices: true })(
  "end to end: a checkout through the real app on a database, the SDK and the card issuer's signed requests",
  (it) => {
    it.effect(
      "an intent approved by a person gets its card, the issuer's authorization holds the money, clearing posts it once",
      () =>
        withApp(baseEnv(), (app) =>
          Effect.gen(function* () {
            const owner = sessionToken()
            ok(yield* call(app, "POST", "/teams", owner, { name: "Shoppers" }), 201)
            const key = ok(
              yield* call(app, "POST", "/treasury/spending-keys", owner, {
                name: "buyer",
                mode: "test",
                policy: { approvalThreshold: 1_000 }
              }),
              201
            )
            const agent = createClient({ baseUrl: app.url, token: key.secret })
            const funded = yield* Effect.promise(() =>
              fetch(`${app.url}/v1/test-helpers/deposits`, {
                method: "POST",
                headers: {
                  authorization: `Bearer ${key.secret}`,
                  "content-type": "application/json",
                  "idempotency-key": crypto.randomUUID()
                },
                body: JSON.stringify({ amount: FUNDS, currency: "USD" })
              })
            )
            assert.strictEqual(funded.status, 201)

            const intent = yield* Effect.promise(() =>
              agent.checkout.create({ payload: intentBody(), headers: { "idempotency-key": crypto.randomUUID() } })
            )
            assert.strictEqual(intent.status, "pending_approval")
            const queue = ok(yield* call(app, "GET", "/treasury/approvals?status=pending", owner))
            assert.deepStrictEqual(
              queue.data.map((a: { subjectType: string; subject: { id: string } }) => [a.subjectType, a.subject.id]),
              [["checkout_intent", intent.id]]
            )
            const approval = ok(
              yield* call(app, "POST", `/treasury/approvals/${intent.approval?.id}/approve`, owner, {})
            )
            assert.deepStrictEqual([approval.subjectType, approval.subject.status], ["checkout_intent", "approved"])

            const card = yield* Effect.promise(() =>
              agent.checkoutCredentials.credentials({ params: { id: intent.id } })
            )
            assert.match(card.number ?? "", /^[0-9]{16}$/u)
            const cardToken = yield* cardTokenOf(intent.id)

            const request = authorizationRequest(cardToken, AUTHORIZED)
            const authorization = issuerPost(app, "/webhook/card-issuing-a/auth-stream", request)
            assert.deepStrictEqual(ok(yield* authorization.send()), { approve_response: "APPROVED" })
            const tampered = yield* authorization.send(
              authorization.body.replace(`"amount":${AUTHORIZED}`, '"amount":1')
            )
            assert.strictEqual(tampered.status, 400)
            assert.strictEqual(tampered.body.error, "invalid_signature")
            const held = yield* Effect.promise(() => agent.accounts.balance())
            assert.deepStrictEqual([held.posted, held.pending, held.available], [FUNDS, AUTHORIZED, FUNDS - AUTHORIZED])
            const holds = ok(
              yield* call(app, "GET", `/treasury/ledger?accountId=${intent.accountId}`, owner)
            ).data.filter((t: { code: string }) => t.code === "card_authorization")
            assert.deepStrictEqual(
              holds.map((t: { kind: string; reference: string }) => [t.kind, t.reference]),
              [["pending", request.token]]
            )
            assert.strictEqual(
              (yield* Effect.promise(() => agent.checkout.get({ params: { id: intent.id } }))).status,
              "authorized"
            )

            const clearing = issuerPost(app, "/webhook/card-issuing-a", {
              type: "transaction",
              data: { id: `txn_${crypto.randomUUID()}`, token: request.token, amount: AUTHORIZED, currency: "USD" }
            })
            assert.deepStrictEqual(ok(yield* clearing.send()), { received: true })
            const completed = yield* Effect.promise(() =>
              eventually(
                () => agent.checkout.get({ params: { id: intent.id } }),
                (i) => i.status === "completed"
              )
            )
            assert.strictEqual(completed.status, "completed")
            assert.strictEqual(completed.capturedAmount, AUTHORIZED)
            assert.deepStrictEqual(ok(yield* clearing.send()), { received: true }, "a redelivery is acknowledged")
            const redelivered = issuerPost(
              app,
              "/webhook/card-issuing-a",
              JSON.parse(clearing.body),
              clearing.headers["webhook-id"]
            )
            assert.deepStrictEqual(ok(yield* redelivered.send()), { received: true })

            const paid = yield* Effect.promise(() => agent.accounts.balance())
            assert.deepStrictEqual(
              [paid.posted, paid.pending, paid.available],
              [FUNDS - AUTHORIZED, 0, FUNDS - AUTHORIZED],
              "the hold was posted once"
            )
            const ledger = ok(yield* call(app, "GET", `/treasury/ledger?accountId=${intent.accountId}`, owner)).data
            const hold = holds[0]
            assert.deepStrictEqual(
              ledger
                .filter((t: { pendingId: string | null }) => t.pendingId === hold.id)
                .map((t: { kind: string }) => t.kind),
              ["post_pending"],
              "the hold was resolved once, by posting all of it"
            )
            const again = issuerPost(app, "/webhook/card-issuing-a/auth-stream", authorizationRequest(cardToken, 100))
            assert.deepStrictEqual(ok(yield* again.send()).approve_response, "DECLINED", "the card was single-use")
          })
        )
    )
  }
)

import { createHmac } from "node:crypto"
import { assert, layer } from "@effect/vitest"
import type { Ports, ServiceConfig } from "@svc/api"
import { CardsRepo, type CheckoutIntentId } from "@svc/domain"
import { Effect, type Layer, Option, Redacted } from "effect"
import { isStored } from "../inbound/InboundSetup.ts"
import { assertInvalid, balance, type Client, setUpKeyedTeam, withAppOnPorts } from "../support/HttpScenarios.ts"
import { testConfig } from "../support/InProcessApp.ts"
import { baseEnv } from "../support/WebhooksHarness.ts"
import {
  AUTH_STREAM,
  assertFullCredentials,
  authorizationRequest,
  cardTokenOf,
  intentBody,
  signedAuthorization
} from "./CheckoutHttpSetup.ts"

const createIntent = (app: Client, key: string, body: unknown, idempotencyKey: string = crypto.randomUUID()) =>
  app.call("POST", "/v1/checkout/intents", { token: key, body, headers: { "idempotency-key": idempotencyKey } })

const credentials = (app: Client, key: string, id: string, headers: Record<string, string> = {}) =>
  app.call("POST", `/v1/checkout/intents/${id}/credentials`, { token: key, headers })

/** Posts a signed auth-stream request; `options` sign it otherwise (another secret, a stale timestamp). */
const authorize = async (app: Client, request: unknown, options: Parameters<typeof signedAuthorization>[1] = {}) => {
  const { body, headers } = await signedAuthorization(request, options)
  return app.call("POST", AUTH_STREAM, { body, headers })
}

/** The environment of the suite's apps: every webhook secret, no background workers. */
const ENV = baseEnv({ WEBHOOK_WORKERS: "off" })

/** The /v1/checkout routes, the treasury's decisions on intents and the auth-stream over HTTP, on the given ports. */
export const checkoutHttpSuite = <E>(name: string, ports: Layer.Layer<Ports, E>) =>
  layer(ports, { timeout: "120 seconds", excludeTestServices: true })(`checkout over HTTP (${name})`, (it) => {
    /** Runs `f` against the whole app in process over the suite's ports, with `env`, on the live clock. */
    const withApp = (
      f: (app: Client, run: <A, E2>(effect: Effect.Effect<A, E2, Ports>) => Promise<A>) => Promise<void>,
      env: Record<string, string> = ENV,
      config: ServiceConfig = testConfig
    ) =>
      withAppOnPorts(
        (app, context) => f(app, (effect) => Effect.runPromise(Effect.provide(effect, context))),
        config,
        env
      )

    it.effect("an approved intent gets its card once; the auth-stream approves within it and holds the money", () =>
      withApp(async (app, run) => {
        const acme = await setUpKeyedTeam(app, { funds: 10_000 })
        const created = await createIntent(app, acme.key, intentBody())
        assert.strictEqual(created.status, 201, JSON.stringify(created.body))
        const intent = created.body
        assert.deepStrictEqual(intent, {
          id: intent.id,
          object: "checkout_intent",
          mode: "test",
          status: "approved",
          amount: 2_500,
          currency: "USD",
          merchant: { name: "Acme Books", url: "https://acme-books.example", mcc: "5942", country: "US" },
          purpose: "a book on double-entry bookkeeping",
          accountId: intent.accountId,
          spendingKeyId: intent.spendingKeyId,
          decision: { outcome: "approved", reasons: [], policyVersions: { spendingKey: 1, team: null } },
          approval: null,
          card: null,
          authorizedAmount: 0,
          capturedAmount: null,
          expiresAt: intent.expiresAt,
          createdAt: intent.createdAt,
          updatedAt: intent.createdAt
        })
        assert.strictEqual(Date.parse(intent.expiresAt) - Date.parse(intent.createdAt), 3_600_000)
        assert.deepStrictEqual(await balance(app, acme.key), { posted: 10_000, pending: 0, available: 10_000 })
        assert.deepStrictEqual(
          (await app.call("GET", `/v1/checkout/intents/${intent.id}`, { token: acme.key })).body,
          intent
        )

        const idempotencyKey = crypto.randomUUID()
        const first = await credentials(app, acme.key, intent.id, { "idempotency-key": idempotencyKey })
        assert.strictEqual(first.status, 200, JSON.stringify(first.body))
        assertFullCredentials(first.body)
        const reference = {
          cardId: first.body.cardId,
          expMonth: first.body.expMonth,
          expYear: first.body.expYear,
          last4: first.body.last4,
          brand: "visa"
        }
        assert.deepStrictEqual(first.body, { ...reference, number: first.body.number, cvc: first.body.cvc })
        for (const headers of [{ "idempotency-key": idempotencyKey }, {}, { "idempotency-key": crypto.randomUUID() }]) {
          const again = await credentials(app, acme.key, intent.id, headers)
          assert.strictEqual(again.status, 200)
          assert.deepStrictEqual(again.body, reference, "a later call answers the card without its secrets")
          assert.isNull(again.headers.get("idempotent-replayed"))
        }
        const withCard = (await app.call("GET", `/v1/checkout/intents/${intent.id}`, { token: acme.key })).body
        assert.deepStrictEqual(withCard.card, {
          id: reference.cardId,
          last4: reference.last4,
          brand: "visa",
          expMonth: reference.expMonth,
          expYear: reference.expYear
        })
        assert.notInclude(JSON.stringify(withCard), first.body.number)

        const stored = await run(CardsRepo.use((cards) => cards.findByIntent(intent.id as CheckoutIntentId)))
        assert.strictEqual(
          Option.getOrThrow(stored).numberHash,
          createHmac("sha256", Redacted.value(testConfig.cardNumberKey)).update(first.body.number).digest("hex"),
          "the number is kept only as its HMAC under the configured CARD_NUMBER_KEY"
        )
        const cardToken = await run(cardTokenOf(intent.id))
        const request = authorizationRequest(cardToken, 2_400)
        const approved = await authorize(app, request)
        assert.strictEqual(approved.status, 200, JSON.stringify(approved.body))
        assert.deepStrictEqual(approved.body, { approve_response: "APPROVED" })
        assert.deepStrictEqual(await balance(app, acme.key), { posted: 10_000, pending: 2_400, available: 7_600 })
        const replayed = await authorize(app, request)
        assert.deepStrictEqual(
          replayed.body,
          { approve_response: "APPROVED" },
          "a replayed token answers the first decision"
        )
        assert.deepStrictEqual(await balance(app, acme.key), { posted: 10_000, pending: 2_400, available: 7_600 })
        const held = (await app.call("GET", `/v1/checkout/intents/${intent.id}`, { token: acme.key })).body
        assert.strictEqual(held.status, "authorized")
        assert.strictEqual(held.authorizedAmount, 2_400)
        const ledger = await app.call("GET", "/treasury/ledger", { token: acme.owner })
        assert.deepStrictEqual(
          ledger.body.data
            .filter((t: { code: string }) => t.code === "card_authorization")
            .map((t: { reference: string; kind: string }) => t.reference),
          [request.token],
          "one hold, referencing the authorization"
        )

        const second = await authorize(app, authorizationRequest(cardToken, 100))
        assert.deepStrictEqual(
          second.body,
          { approve_response: "DECLINED", decline_reason: "intent_not_approved" },
          "the card is single-use"
        )
        const unknownCard = await authorize(app, authorizationRequest("card_tok_unknown", 100))
        assert.deepStrictEqual(unknownCard.body, { approve_response: "DECLINED", decline_reason: "card_not_found" })
        assert.deepStrictEqual(await balance(app, acme.key), { posted: 10_000, pending: 2_400, available: 7_600 })

        const canceled = await app.call("POST", `/v1/checkout/intents/${intent.id}/cancel`, {
          token: acme.key,
          headers: { "idempotency-key": crypto.randomUUID() }
        })
        assert.strictEqual(canceled.status, 409)
        assert.deepStrictEqual(canceled.body, {
          error: "checkout_intent_not_usable",
          code: 409,
          message: "the checkout intent is authorized"
        })
      })
    )

    it.effect("lists, filters and cancels intents; a canceled intent gets no card and declines", () =>
      withApp(async (app, run) => {
        const acme = await setUpKeyedTeam(app, { funds: 10_000 })
        const first = (await createIntent(app, acme.key, intentBody())).body
        const second = (await createIntent(app, acme.key, intentBody({ amount: 700 }))).body
        const third = (await createIntent(app, acme.key, intentBody({ amount: 300, expiresInSeconds: 60 }))).body
        assert.strictEqual(Date.parse(third.expiresAt) - Date.parse(third.createdAt), 60_000)

        const issued = await credentials(app, acme.key, second.id)
        assert.strictEqual(issued.status, 200)
        const cardToken = await run(cardTokenOf(second.id))
        const canceled = await app.call("POST", `/v1/checkout/intents/${second.id}/cancel`, {
          token: acme.key,
          headers: { "idempotency-key": crypto.randomUUID() }
        })
        assert.strictEqual(canceled.status, 200, JSON.stringify(canceled.body))
        assert.strictEqual(canceled.body.status, "canceled")
        const declined = await authorize(app, authorizationRequest(cardToken, 700))
        assert.strictEqual(declined.body.approve_response, "DECLINED")
        const late = await credentials(app, acme.key, second.id)
        assert.strictEqual(late.status, 409)
        assert.deepStrictEqual(late.body, {
          error: "checkout_intent_not_usable",
          code: 409,
          message: "the checkout intent is canceled"
        })
        const again = await app.call("POST", `/v1/checkout/intents/${second.id}/cancel`, {
          token: acme.key,
          headers: { "idempotency-key": crypto.randomUUID() }
        })
        assert.strictEqual(again.status, 409)

        const all = await app.call("GET", "/v1/checkout/intents", { token: acme.key })
        assert.strictEqual(all.status, 200)
        assert.deepStrictEqual(
          all.body.data.map((i: { id: string; status: string }) => [i.id, i.status]),
          [
            [third.id, "approved"],
            [second.id, "canceled"],
            [first.id, "approved"]
          ]
        )
        const onlyCanceled = await app.call("GET", "/v1/checkout/intents?status=canceled", { token: acme.key })
        assert.deepStrictEqual(
          onlyCanceled.body.data.map((i: { id: string }) => i.id),
          [second.id]
        )
        const page1 = await app.call("GET", "/v1/checkout/intents?limit=2", { token: acme.key })
        assert.isTrue(page1.body.meta.hasNextPage)
        const page2 = await app.call("GET", `/v1/checkout/intents?limit=2&cursor=${page1.body.meta.cursor}`, {
          token: acme.key
        })
        assert.deepStrictEqual(
          [...page1.body.data, ...page2.body.data].map((i: { id: string }) => i.id),
          [third.id, second.id, first.id]
        )
        assert.isFalse(page2.body.meta.hasNextPage)
        assertInvalid(await app.call("GET", "/v1/checkout/intents?status=spent", { token: acme.key }), "query.status")
        assertInvalid(
          await app.call("GET", "/v1/checkout/intents?cursor=forged", { token: acme.key }),
          "query.cursor",
          "invalid_cursor"
        )
      })
    )

    it.effect("refuses bad intents with 400s naming the field, unknown ones with 404, other teams' too", () =>
      withApp(async (app) => {
        const acme = await setUpKeyedTeam(app, { funds: 10_000 })
        const merchant = intentBody().merchant
        for (const [body, field] of [
          [intentBody({ amount: 0 }), "amount"],
          [intentBody({ amount: 1.5 }), "amount"],
          [intentBody({ amount: "25" }), "amount"],
          [intentBody({ currency: "usd" }), "currency"],
          [intentBody({ currency: "EUR" }), "currency"],
          [intentBody({ merchant: { ...merchant, name: "" } }), "merchant.name"],
          [intentBody({ merchant: { ...merchant, name: "   " } }), "merchant.name"],
          [intentBody({ merchant: { ...merchant, name: "x".repeat(501) } }), "merchant.name"],
          [intentBody({ merchant: { ...merchant, url: "ftp://acme.example" } }), "merchant.url"],
          [intentBody({ merchant: { ...merchant, mcc: "59" } }), "merchant.mcc"],
          [intentBody({ merchant: { ...merchant, country: "us" } }), "merchant.country"],
          [intentBody({ merchant: undefined }), "merchant"],
          [intentBody({ purpose: "" }), "purpose"],
          [intentBody({ expiresInSeconds: 59 }), "expiresInSeconds"],
          [intentBody({ expiresInSeconds: 2_592_001 }), "expiresInSeconds"],
          [intentBody({ expiresInSeconds: 90.5 }), "expiresInSeconds"],
          [intentBody({ tip: 1 }), "tip"]
        ] as const) {
          assertInvalid(await createIntent(app, acme.key, body), field)
        }
        const missingKey = await app.call("POST", "/v1/checkout/intents", { token: acme.key, body: intentBody() })
        assert.strictEqual(missingKey.status, 400)
        assert.strictEqual(missingKey.body.error, "idempotency_key_required")
        assert.deepStrictEqual((await app.call("GET", "/v1/checkout/intents", { token: acme.key })).body.data, [])

        const intent = (await createIntent(app, acme.key, intentBody())).body
        const globex = await setUpKeyedTeam(app, { funds: 10_000 })
        const unknown = crypto.randomUUID()
        for (const [method, path, key] of [
          ["GET", `/v1/checkout/intents/${unknown}`, acme.key],
          ["POST", `/v1/checkout/intents/${unknown}/cancel`, acme.key],
          ["POST", `/v1/checkout/intents/${unknown}/credentials`, acme.key],
          ["GET", `/v1/checkout/intents/${intent.id}`, globex.key],
          ["POST", `/v1/checkout/intents/${intent.id}/cancel`, globex.key],
          ["POST", `/v1/checkout/intents/${intent.id}/credentials`, globex.key]
        ] as const) {
          const answer = await app.call(method, path, {
            token: key,
            headers: { "idempotency-key": crypto.randomUUID() }
          })
          assert.strictEqual(answer.status, 404, path)
          assert.strictEqual(answer.body.error, "not_found")
        }
        assertInvalid(await app.call("GET", "/v1/checkout/intents/not-a-uuid", { token: acme.key }), "params.id")
        assert.strictEqual(
          (await app.call("GET", `/v1/checkout/intents/${intent.id}`, { token: acme.key })).body.card,
          null
        )
      })
    )

    it.effect("keys without spend.write cannot create intents nor get cards; with spend.read they read them", () =>
      withApp(async (app) => {
        const acme = await setUpKeyedTeam(app, { funds: 10_000 })
        const intent = (await createIntent(app, acme.key, intentBody())).body
        const scoped = await app.call("POST", "/treasury/team-api-keys", {
          token: acme.owner,
          body: { name: "reader", mode: "test", scopes: ["spend.read"] }
        })
        assert.strictEqual(scoped.status, 201)
        const reader = scoped.body.secret as string
        assert.strictEqual((await app.call("GET", `/v1/checkout/intents/${intent.id}`, { token: reader })).status, 200)
        for (const answer of [
          await createIntent(app, reader, intentBody()),
          await credentials(app, reader, intent.id),
          await app.call("POST", `/v1/checkout/intents/${intent.id}/cancel`, { token: reader })
        ]) {
          assert.strictEqual(answer.status, 403)
          assert.strictEqual(answer.body.error, "insufficient_scope")
        }
        assert.strictEqual((await app.call("GET", "/v1/checkout/intents", {})).status, 401)
        assert.strictEqual((await credentials(app, "svc_test_unknown", intent.id)).status, 401)
      })
    )

    it.effect("a create is idempotent: a retry replays it, another body under the key is 422, one intent is made", () =>
      withApp(async (app) => {
        const acme = await setUpKeyedTeam(app, { funds: 10_000, policy: { dailyBudget: 3_000 } })
        const key = crypto.randomUUID()
        const first = await createIntent(app, acme.key, intentBody(), key)
        assert.strictEqual(first.status, 201)
        const replay = await createIntent(app, acme.key, intentBody(), key)
        assert.strictEqual(replay.status, 201)
        assert.strictEqual(replay.headers.get("idempotent-replayed"), "true")
        assert.deepStrictEqual(replay.body, first.body)
        const other = await createIntent(app, acme.key, intentBody({ amount: 2_600 }), key)
        assert.strictEqual(other.status, 422)
        assert.strictEqual(other.body.error, "idempotency_key_reused")
        const listed = await app.call("GET", "/v1/checkout/intents", { token: acme.key })
        assert.deepStrictEqual(
          listed.body.data.map((i: { id: string }) => i.id),
          [first.body.id]
        )
        const overBudget = await createIntent(app, acme.key, intentBody({ amount: 600 }))
        assert.strictEqual(overBudget.status, 201)
        assert.strictEqual(overBudget.body.status, "denied", "the replay did not count the budget twice, the first did")
        assert.deepStrictEqual(
          overBudget.body.decision.reasons.map((r: { code: string }) => r.code),
          ["daily_budget_exceeded"]
        )
        const denied = await credentials(app, acme.key, overBudget.body.id)
        assert.strictEqual(denied.status, 409)
        assert.strictEqual(denied.body.message, "the checkout intent is denied")
      })
    )

    it.effect(
      "an intent over the threshold waits in /treasury/approvals; approved there it gets its card, denied it does not",
      () =>
        withApp(async (app, run) => {
          const acme = await setUpKeyedTeam(app, { funds: 10_000, policy: { approvalThreshold: 1_000 } })
          const created = await createIntent(app, acme.key, intentBody())
          assert.strictEqual(created.status, 201)
          const intent = created.body
          assert.strictEqual(intent.status, "pending_approval")
          assert.strictEqual(intent.approval.status, "pending")
          assert.deepStrictEqual(
            intent.decision.reasons.map((r: { code: string }) => r.code),
            ["approval_threshold"]
          )
          const early = await credentials(app, acme.key, intent.id)
          assert.strictEqual(early.status, 409)
          assert.deepStrictEqual(early.body, {
            error: "checkout_intent_not_usable",
            code: 409,
            message: "the checkout intent is pending_approval"
          })
          const spend = await app.call("POST", "/v1/spend-requests", {
            token: acme.key,
            body: { amount: 1_200, currency: "USD", merchant: { name: "OpenAI" }, purpose: "tokens" },
            headers: { "idempotency-key": crypto.randomUUID() }
          })
          assert.strictEqual(spend.body.status, "pending_approval")

          const queue = await app.call("GET", "/treasury/approvals?status=pending", { token: acme.owner })
          assert.strictEqual(queue.status, 200)
          assert.deepStrictEqual(
            queue.body.data.map((a: { id: string; subjectType: string }) => [a.id, a.subjectType]),
            [
              [spend.body.approval.id, "spend_request"],
              [intent.approval.id, "checkout_intent"]
            ]
          )
          const listed = queue.body.data[1]
          assert.deepStrictEqual(listed.subject, intent)
          for (const old of ["spendRequest", "transfer", "checkoutIntent", "cryptoPayout"])
            assert.notProperty(listed, old)

          const approved = await app.call("POST", `/treasury/approvals/${intent.approval.id}/approve`, {
            token: acme.owner,
            body: { note: "known shop" }
          })
          assert.strictEqual(approved.status, 200, JSON.stringify(approved.body))
          assert.strictEqual(approved.body.subjectType, "checkout_intent")
          assert.strictEqual(approved.body.status, "approved")
          assert.strictEqual(approved.body.note, "known shop")
          assert.strictEqual(approved.body.subject.status, "approved")
          const again = await app.call("POST", `/treasury/approvals/${intent.approval.id}/deny`, {
            token: acme.owner,
            body: {}
          })
          assert.strictEqual(again.status, 409)
          assert.strictEqual(again.body.error, "approval_not_pending")
          const card = await credentials(app, acme.key, intent.id)
          assert.strictEqual(card.status, 200)
          assertFullCredentials(card.body)
          const answer = await authorize(app, authorizationRequest(await run(cardTokenOf(intent.id)), 2_500))
          assert.deepStrictEqual(answer.body, { approve_response: "APPROVED" })

          const refused = (await createIntent(app, acme.key, intentBody({ amount: 3_000 }))).body
          const denied = await app.call("POST", `/treasury/approvals/${refused.approval.id}/deny`, {
            token: acme.owner,
            body: {}
          })
          assert.strictEqual(denied.status, 200)
          assert.strictEqual(denied.body.status, "denied")
          assert.deepStrictEqual([denied.body.subjectType, denied.body.subject.status], ["checkout_intent", "denied"])
          assert.strictEqual((await credentials(app, acme.key, refused.id)).status, 409)
          assert.deepStrictEqual(await balance(app, acme.key), { posted: 10_000, pending: 3_700, available: 6_300 })
        })
    )

    it.effect("the auth-stream verifies the card-issuing-a signature and names the field of a malformed request", () =>
      withApp(async (app, run) => {
        const request = authorizationRequest("card_tok_unknown", 100)
        const messageId = `msg_${crypto.randomUUID()}`
        const ok = await authorize(app, request, { id: messageId })
        assert.strictEqual(ok.status, 200)
        assert.deepStrictEqual(ok.body, { approve_response: "DECLINED", decline_reason: "card_not_found" })
        assert.isFalse(
          await run(isStored("card-issuing-a/auth-stream", messageId)),
          "no inbound event was stored: the decision is the request's record"
        )

        const { body, headers } = await signedAuthorization(request)
        const tampered = await app.call("POST", AUTH_STREAM, {
          body: body.replace('"amount":100', '"amount":1'),
          headers
        })
        assert.strictEqual(tampered.status, 400)
        assert.strictEqual(tampered.body.error, "invalid_signature")
        const wrongSecret = await authorize(app, request, {
          secret: "whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
        })
        assert.strictEqual(wrongSecret.body.error, "invalid_signature")
        const stale = await authorize(app, request, { timestamp: Math.floor(Date.now() / 1000) - 3_600 })
        assert.strictEqual(stale.status, 400)
        assert.strictEqual(stale.body.error, "stale_timestamp")
        const unsigned = await app.call("POST", AUTH_STREAM, { body })
        assert.strictEqual(unsigned.status, 400)
        assert.strictEqual(unsigned.body.error, "missing_signature")

        for (const [malformed, field] of [
          [{ ...request, amount: "100" }, "amount"],
          [{ ...request, amount: 0 }, "amount"],
          [{ ...request, amount: 1.5 }, "amount"],
          [{ ...request, card_token: undefined }, "card_token"],
          [{ ...request, token: "" }, "token"],
          [{ ...request, currency: "usd" }, "currency"],
          [{ ...request, merchant: { mcc: "5942" } }, "merchant.descriptor"],
          [{ ...request, merchant: { descriptor: "ACME\u0000" } }, "merchant.descriptor"]
        ] as const) {
          const answer = await authorize(app, malformed)
          assert.strictEqual(answer.status, 400, `${field}: ${JSON.stringify(answer.body)}`)
          assert.strictEqual(answer.body.error, "invalid_payload")
          assert.include(answer.body.message, field)
          assert.strictEqual(answer.body.details[0].path, field)
        }
        for (const raw of ["not json", "[]", '"a string"']) {
          const answer = await authorize(app, raw)
          assert.strictEqual(answer.status, 400, raw)
          assert.strictEqual(answer.body.error, "invalid_payload")
        }
        const huge = await authorize(app, { ...request, merchant: { descriptor: "x".repeat(1024 * 1024) } })
        assert.strictEqual(huge.status, 413)
      })
    )

    it.effect(
      "the auth-stream takes card-issuing-a's secret; the old WEBHOOK_SECRET_CARD_ISSUING_A_AUTH_STREAM is ignored",
      () =>
        Effect.gen(function* () {
          const oldSecret = "whsec_b2xkLWF1dGgtc3RyZWFtLXNlY3JldC1rZXk="
          const { WEBHOOK_SECRET_CARD_ISSUING_A: _, ...withoutCardIssuingSecret } = ENV
          const request = authorizationRequest("card_tok_unknown", 100)
          yield* withApp(
            async (app) => {
              const old = await authorize(app, request, { secret: oldSecret })
              assert.strictEqual(old.status, 400)
              assert.strictEqual(old.body.error, "invalid_signature")
              assert.strictEqual((await authorize(app, request)).status, 200)
            },
            { ...ENV, WEBHOOK_SECRET_CARD_ISSUING_A_AUTH_STREAM: oldSecret }
          )
          yield* withApp(
            async (app) => {
              const answer = await authorize(app, request, { secret: oldSecret })
              assert.strictEqual(answer.status, 400)
              assert.strictEqual(answer.body.error, "secret_not_configured")
            },
            { ...withoutCardIssuingSecret, WEBHOOK_SECRET_CARD_ISSUING_A_AUTH_STREAM: oldSecret }
          )
        })
    )

    it.effect("an authorization may exceed its intent by the app's configured tolerance, and not by more", () =>
      withApp(
        async (app, run) => {
          const acme = await setUpKeyedTeam(app, { funds: 10_000 })
          const intent = (await createIntent(app, acme.key, intentBody())).body
          assert.strictEqual((await credentials(app, acme.key, intent.id)).status, 200)
          const cardToken = await run(cardTokenOf(intent.id))
          const over = await authorize(app, authorizationRequest(cardToken, 2_601))
          assert.deepStrictEqual(over.body, { approve_response: "DECLINED", decline_reason: "amount_over_intent" })
          const tipped = await authorize(app, authorizationRequest(cardToken, 2_600))
          assert.deepStrictEqual(tipped.body, { approve_response: "APPROVED" })
          assert.deepStrictEqual(await balance(app, acme.key), { posted: 10_000, pending: 2_600, available: 7_400 })
        },
        ENV,
        { ...testConfig, cardAuthToleranceMinor: 100 }
      )
    )
  })

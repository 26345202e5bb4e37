import { assert, beforeAll, describe, it } from "@effect/vitest"
import { createClient } from "@svc/sdk"
import { failureOf, loopbackServer } from "../support/LoopbackServer.ts"
import { twoTeamsApp } from "../transfers/TransfersHttpSetup.ts"
import { assertFullCredentials, intentBody } from "./CheckoutHttpSetup.ts"

const { app, teams } = twoTeamsApp()

const server = loopbackServer(app.handler)

beforeAll(async () => {
  const deposit = await app.call("POST", "/v1/test-helpers/deposits", {
    token: teams.acme.testKey,
    body: { amount: 10_000, currency: "USD" },
    headers: { "idempotency-key": crypto.randomUUID() }
  })
  assert.strictEqual(deposit.status, 201)
})

describe("the SDK's checkout routes", () => {
  it("creates an intent once per idempotency key, gets its card once, lists, reads and cancels intents", async () => {
    const acme = createClient({ baseUrl: server.baseUrl(), token: teams.acme.testKey })
    const key = crypto.randomUUID()
    const intent = await acme.checkout.create({ payload: intentBody(), headers: { "idempotency-key": key } })
    assert.strictEqual(intent.status, "approved")
    assert.deepStrictEqual(
      await acme.checkout.create({ payload: intentBody(), headers: { "idempotency-key": key } }),
      intent
    )

    const card = await acme.checkoutCredentials.credentials({ params: { id: intent.id } })
    assertFullCredentials(card)
    const { number: _number, cvc: _cvc, ...reference } = card
    assert.deepStrictEqual(
      await acme.checkoutCredentials.credentials({ params: { id: intent.id } }),
      reference,
      "the secrets come once"
    )
    assert.strictEqual((await acme.checkout.get({ params: { id: intent.id } })).card?.id, card.cardId)

    const other = await acme.checkout.create({
      payload: intentBody({ amount: 300 }),
      headers: { "idempotency-key": crypto.randomUUID() }
    })
    assert.strictEqual((await acme.checkout.cancel({ params: { id: other.id } })).status, "canceled")
    const late = await failureOf(acme.checkoutCredentials.credentials({ params: { id: other.id } }))
    assert.deepStrictEqual([late.status, late.error], [409, "checkout_intent_not_usable"])
    const again = await failureOf(
      acme.checkout.cancel({ params: { id: other.id }, headers: { "idempotency-key": crypto.randomUUID() } })
    )
    assert.deepStrictEqual([again.status, again.error], [409, "checkout_intent_not_usable"])

    const page = await acme.checkout.list({ query: { limit: 1 } })
    assert.deepStrictEqual(
      page.data.map((i) => i.id),
      [other.id]
    )
    assert.isTrue(page.meta.hasNextPage)
    assert.deepStrictEqual(
      (await acme.checkout.list({ query: { status: "approved" } })).data.map((i) => i.id),
      [intent.id]
    )
    const globex = createClient({ baseUrl: server.baseUrl(), token: teams.globex.testKey })
    const hidden = await failureOf(globex.checkout.get({ params: { id: intent.id } }))
    assert.deepStrictEqual([hidden.status, hidden.error], [404, "not_found"])
    const invalid = await failureOf(
      acme.checkout.create({ payload: intentBody({ amount: 0 }), headers: { "idempotency-key": crypto.randomUUID() } })
    )
    assert.deepStrictEqual(
      invalid.details?.map((d) => d.path),
      ["amount"]
    )
  })

  it("plays the card issuer in test mode: authorize, advise, clear, refund, close; a live key is refused", async () => {
    const acme = createClient({ baseUrl: server.baseUrl(), token: teams.acme.testKey })
    const intent = await acme.checkout.create({
      payload: intentBody({ amount: 1_000 }),
      headers: { "idempotency-key": crypto.randomUUID() }
    })
    const { cardId } = await acme.checkoutCredentials.credentials({ params: { id: intent.id } })
    const merchant = { descriptor: "ACME BOOKS", mcc: "5942", country: "US" }
    const auth = await acme.checkoutTestHelpers.authorize({
      params: { id: cardId },
      payload: { amount: 900, currency: "USD", merchant }
    })
    assert.deepInclude(auth, { decision: "APPROVED", declineReason: null, status: "approved", heldAmount: 900 })
    const advised = await acme.checkoutTestHelpers.advise({ params: { id: auth.id }, payload: { amount: 1_000 } })
    assert.strictEqual(advised.heldAmount, 1_000)
    const cleared = await acme.checkoutTestHelpers.clear({ params: { id: auth.id }, payload: {} })
    assert.deepInclude(cleared, { status: "cleared", heldAmount: 0 })
    const refunded = await acme.checkoutTestHelpers.refund({ params: { id: auth.id }, payload: { amount: 250 } })
    assert.strictEqual(refunded.refundedAmount, 250)
    assert.deepInclude(await acme.checkout.get({ params: { id: intent.id } }), {
      status: "completed",
      capturedAmount: 1_000
    })
    const card = await acme.checkoutTestHelpers.cardStatus({ params: { id: cardId }, payload: { status: "closed" } })
    assert.deepInclude(card, { object: "card", id: cardId, status: "closed" })
    const declined = await acme.checkoutTestHelpers.authorize({
      params: { id: cardId },
      payload: { amount: 100, currency: "USD", merchant }
    })
    assert.deepInclude(declined, { decision: "DECLINED", declineReason: "card_inactive" })

    const live = createClient({ baseUrl: server.baseUrl(), token: teams.acme.liveKey })
    const refused = await failureOf(
      live.checkoutTestHelpers.authorize({
        params: { id: cardId },
        payload: { amount: 100, currency: "USD", merchant }
      })
    )
    assert.deepStrictEqual([refused.status, refused.error], [403, "forbidden"])
  })
})

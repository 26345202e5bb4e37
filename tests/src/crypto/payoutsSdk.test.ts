import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { type CreateCryptoPayoutInput, type CryptoPayout, createClient } from "@svc/sdk"
import { setUpKeyedTeam } from "../support/HttpScenarios.ts"
import { inProcessApp, testConfig } from "../support/InProcessApp.ts"
import { failureOf, loopbackServer } from "../support/LoopbackServer.ts"
import { ADDRESSES } from "./CryptoSetup.ts"

// The app's payout worker runs once at start and then hourly: the payouts stay where the test leaves them.
const app = inProcessApp({ ...testConfig, cryptoWorkerIntervalSeconds: 3_600 })
afterAll(() => app.dispose())
const server = loopbackServer(app.handler)
const setup = { key: "", destinationId: "" }

beforeAll(async () => {
  const team = await setUpKeyedTeam(app, { funds: 50_000 })
  const destination = await app.call("POST", "/treasury/crypto/destinations", {
    token: team.owner,
    body: { name: "Wallet", network: "arbitrum", asset: "USDC", address: ADDRESSES.evm, mode: "test" }
  })
  assert.strictEqual(destination.status, 201)
  Object.assign(setup, { key: team.key, destinationId: destination.body.id })
})

describe("the SDK's crypto payout routes", () => {
  it("pays a quote out once per idempotency key, reads, lists and cancels it; a used quote is a 409 ApiError", async () => {
    const sdk = createClient({ baseUrl: server.baseUrl(), token: setup.key })
    const quote = await sdk.cryptoQuotes.create({
      payload: {
        amount: 4_000,
        currency: "USD",
        asset: "USDC",
        network: "arbitrum",
        destinationId: setup.destinationId
      },
      headers: { "idempotency-key": crypto.randomUUID() }
    })
    const payload: CreateCryptoPayoutInput = { quoteId: quote.id }
    const headers = { "idempotency-key": crypto.randomUUID() }
    const payout: CryptoPayout = await sdk.cryptoPayouts.create({ payload, headers })
    assert.deepStrictEqual(
      [payout.status, payout.amount, payout.tokenAmount, payout.network, payout.txHash],
      ["pending", 4_000, quote.tokenAmount, "arbitrum", null]
    )
    assert.deepStrictEqual(await sdk.cryptoPayouts.create({ payload, headers }), payout)
    assert.deepStrictEqual(await sdk.cryptoPayouts.get({ params: { id: payout.id } }), payout)
    const listed = await sdk.cryptoPayouts.list({ query: { status: "pending" } })
    assert.deepStrictEqual(
      listed.data.map((p) => p.id),
      [payout.id]
    )
    const used = await failureOf(
      sdk.cryptoPayouts.create({ payload, headers: { "idempotency-key": crypto.randomUUID() } })
    )
    assert.deepStrictEqual([used.status, used.error], [409, "quote_used"])
    const canceled = await sdk.cryptoPayouts.cancel({
      params: { id: payout.id },
      headers: { "idempotency-key": crypto.randomUUID() }
    })
    assert.strictEqual(canceled.status, "canceled")
    const again = await failureOf(
      sdk.cryptoPayouts.cancel({ params: { id: payout.id }, headers: { "idempotency-key": crypto.randomUUID() } })
    )
    assert.deepStrictEqual([again.status, again.error], [409, "payout_not_pending"])
    const unknown = await failureOf(sdk.cryptoPayouts.get({ params: { id: crypto.randomUUID() } }))
    assert.deepStrictEqual([unknown.status, unknown.error], [404, "not_found"])
  })
})

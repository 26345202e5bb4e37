import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { type CreateCryptoQuoteInput, type CryptoQuote, createClient } from "@svc/sdk"
import { setUpKeyedTeam } from "../support/HttpScenarios.ts"
import { inProcessApp } from "../support/InProcessApp.ts"
import { failureOf, loopbackServer } from "../support/LoopbackServer.ts"
import { ADDRESSES } from "./CryptoSetup.ts"

const app = inProcessApp()
afterAll(() => app.dispose())
const server = loopbackServer(app.handler)
const setup = { key: "", destinationId: "" }

beforeAll(async () => {
  const team = await setUpKeyedTeam(app)
  const destination = await app.call("POST", "/treasury/crypto/destinations", {
    token: team.owner,
    body: { name: "Wallet", network: "polygon", asset: "USDT", address: ADDRESSES.evm, mode: "test" }
  })
  assert.strictEqual(destination.status, 201)
  Object.assign(setup, { key: team.key, destinationId: destination.body.id })
})

describe("the SDK's crypto quote routes", () => {
  it("quotes once per idempotency key and reads the quote back; bad input is an ApiError naming the field", async () => {
    const sdk = createClient({ baseUrl: server.baseUrl(), token: setup.key })
    const payload: CreateCryptoQuoteInput = {
      amount: 2_500,
      currency: "USD",
      asset: "USDT",
      network: "polygon",
      destinationId: setup.destinationId
    }
    const headers = { "idempotency-key": crypto.randomUUID() }
    const quote: CryptoQuote = await sdk.cryptoQuotes.create({ payload, headers })
    assert.deepStrictEqual(
      [quote.serviceFee, quote.networkFee, quote.amountDelivered, quote.tokenAmount, quote.decimals],
      [100, 5, 2_395, "23950000", 6]
    )
    assert.deepStrictEqual(await sdk.cryptoQuotes.create({ payload, headers }), quote)
    assert.deepStrictEqual(await sdk.cryptoQuotes.get({ params: { id: quote.id } }), quote)
    const tooSmall = await failureOf(sdk.cryptoQuotes.create({ payload: { ...payload, amount: 105 } }))
    assert.deepStrictEqual([tooSmall.status, tooSmall.details?.map((d) => d.path)], [400, ["amount"]])
    const unknown = await failureOf(
      sdk.cryptoQuotes.create({ payload: { ...payload, destinationId: crypto.randomUUID() } })
    )
    assert.deepStrictEqual([unknown.status, unknown.error], [404, "not_found"])
  })
})

import { afterAll, assert, describe, it } from "@effect/vitest"
import { createClient } from "@svc/sdk"
import { inProcessApp, sessionToken } from "../support/InProcessApp.ts"
import { failureOf, loopbackServer } from "../support/LoopbackServer.ts"

const app = inProcessApp()
const server = loopbackServer(app.handler)
afterAll(() => app.dispose())

describe("the SDK's categories, tags, bank accounts and exchange rates", () => {
  it("drives every route of the four resources", async () => {
    const owner = await sessionToken()
    assert.strictEqual((await app.call("POST", "/teams", { token: owner, body: { name: "Acme" } })).status, 201)
    const sdk = createClient({ baseUrl: server.baseUrl(), token: owner })

    const categories = await sdk.categories.list({ query: { limit: 100 } })
    const rent = categories.data.find((c) => c.slug === "rent")!
    const studio = await sdk.categories.create({ payload: { name: "Studio", color: "#112233" } })
    assert.deepInclude(studio, { slug: "studio", system: false, type: "expense" })
    assert.strictEqual(
      (await sdk.categories.update({ params: { id: studio.id }, payload: { taxRate: 19 } })).taxRate,
      19
    )
    assert.strictEqual((await failureOf(sdk.categories.delete({ params: { id: rent.id } }))).status, 409)
    assert.strictEqual((await sdk.categories.delete({ params: { id: studio.id } })).id, studio.id)

    const tag = await sdk.tags.create({ payload: { name: "travel" } })
    assert.deepStrictEqual(await sdk.tags.update({ params: { id: tag.id }, payload: { name: "trips" } }), {
      id: tag.id,
      name: "trips"
    })
    assert.deepStrictEqual(await sdk.tags.list(), { data: [{ id: tag.id, name: "trips" }] })
    await sdk.tags.delete({ params: { id: tag.id } })
    assert.deepStrictEqual(await sdk.tags.list(), { data: [] })

    const rates = await sdk.exchangeRates.set({
      payload: { rates: [{ base: "EUR", quote: "USD", rate: "1.25", validOn: "2000-01-01" }] }
    })
    assert.deepStrictEqual(
      rates.rates.map((r) => r.rate),
      ["1.25"]
    )
    const euro = await sdk.bankAccounts.create({ payload: { name: "Euro", currency: "EUR", balance: 10.5 } })
    assert.deepInclude(euro, { balance: 10.5, baseBalance: 13.13, baseCurrency: "USD" })
    assert.deepStrictEqual(await sdk.bankAccounts.get({ params: { id: euro.id } }), euro)
    const disabled = await sdk.bankAccounts.update({ params: { id: euro.id }, payload: { enabled: false } })
    assert.isFalse(disabled.enabled)
    assert.deepStrictEqual((await sdk.bankAccounts.list({ query: { enabled: "true" } })).data, [])
    assert.deepStrictEqual(
      (await sdk.bankAccounts.list({ query: { enabled: "false", manual: "true" } })).data.map((a) => a.id),
      [euro.id]
    )
    assert.strictEqual((await sdk.bankAccounts.delete({ params: { id: euro.id } })).id, euro.id)
    assert.strictEqual((await failureOf(sdk.bankAccounts.get({ params: { id: euro.id } }))).status, 404)
    assert.deepStrictEqual(await sdk.exchangeRates.deletePair({ params: { base: "EUR", quote: "USD" } }), {
      deleted: 1
    })
    assert.deepStrictEqual(await sdk.exchangeRates.list(), { rates: [] })
  })
})

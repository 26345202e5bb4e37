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

    const categories = await sdk.listCategories({ limit: 100 })
    const rent = categories.data.find((c) => c.slug === "rent")!
    const studio = await sdk.createCategory({ name: "Studio", color: "#112233" })
    assert.deepInclude(studio, { slug: "studio", system: false, type: "expense" })
    assert.strictEqual((await sdk.updateCategory(studio.id, { taxRate: 19 })).taxRate, 19)
    assert.strictEqual((await failureOf(sdk.deleteCategory(rent.id))).status, 409)
    assert.strictEqual((await sdk.deleteCategory(studio.id)).id, studio.id)

    const tag = await sdk.createTag("travel")
    assert.deepStrictEqual(await sdk.renameTag(tag.id, "trips"), { id: tag.id, name: "trips" })
    assert.deepStrictEqual(await sdk.listTags(), { data: [{ id: tag.id, name: "trips" }] })
    await sdk.deleteTag(tag.id)
    assert.deepStrictEqual(await sdk.listTags(), { data: [] })

    const rates = await sdk.setExchangeRates([{ base: "EUR", quote: "USD", rate: "1.25", validOn: "2000-01-01" }])
    assert.deepStrictEqual(
      rates.rates.map((r) => r.rate),
      ["1.25"]
    )
    const euro = await sdk.createBankAccount({ name: "Euro", currency: "EUR", balance: 10.5 })
    assert.deepInclude(euro, { balance: 10.5, baseBalance: 13.13, baseCurrency: "USD" })
    assert.deepStrictEqual(await sdk.getBankAccount(euro.id), euro)
    const disabled = await sdk.updateBankAccount(euro.id, { enabled: false })
    assert.isFalse(disabled.enabled)
    assert.deepStrictEqual((await sdk.listBankAccounts({ enabled: true })).data, [])
    assert.deepStrictEqual(
      (await sdk.listBankAccounts({ enabled: false, manual: true })).data.map((a) => a.id),
      [euro.id]
    )
    assert.strictEqual((await sdk.deleteBankAccount(euro.id)).id, euro.id)
    assert.strictEqual((await failureOf(sdk.getBankAccount(euro.id))).status, 404)
    assert.deepStrictEqual(await sdk.deleteExchangeRates("EUR", "USD"), { deleted: 1 })
    assert.deepStrictEqual(await sdk.listExchangeRates(), { rates: [] })
  })
})

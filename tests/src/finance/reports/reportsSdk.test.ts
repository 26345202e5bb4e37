import { afterAll, assert, describe, it } from "@effect/vitest"
import { createClient } from "@svc/sdk"
import { inProcessApp, sessionToken } from "../../support/InProcessApp.ts"
import { failureOf, loopbackServer } from "../../support/LoopbackServer.ts"

const app = inProcessApp()
afterAll(() => app.dispose())
const server = loopbackServer(app.handler)

describe("the SDK's report methods", () => {
  it("answers every report of the team, and a bad range as an ApiError naming the field", async () => {
    const token = await sessionToken()
    const client = createClient({ baseUrl: server.baseUrl(), token })
    await client.teams.create({ payload: { name: "Acme", baseCurrency: "EUR" } })
    const range = { from: "2025-01-01", to: "2025-02-28" }
    const revenue = await client.reports.revenue({ query: { ...range, revenueType: "net" } })
    assert.deepStrictEqual(revenue.summary, { currentTotal: 0, prevTotal: 0, currency: "EUR" })
    assert.deepStrictEqual(
      revenue.result.map((r) => r.date),
      ["2025-01-01", "2025-02-01"]
    )
    assert.strictEqual((await client.reports.profit({ query: range })).meta.type, "profit")
    assert.deepStrictEqual(
      (await client.reports.burnRate({ query: { ...range, currency: "USD" } })).map((p) => [p.value, p.currency]),
      [
        [0, "USD"],
        [0, "USD"]
      ]
    )
    assert.deepStrictEqual(await client.reports.runway({ query: range }), { months: 0, medianBurn: 0 })
    assert.strictEqual((await client.reports.expenses({ query: range })).summary.averageExpense, 0)
    assert.deepStrictEqual(await client.reports.spending({ query: range }), [])
    const refused = await failureOf(client.reports.spending({ query: { from: "2025-03-01", to: "2025-01-01" } }))
    assert.strictEqual(refused.status, 400)
  })
})

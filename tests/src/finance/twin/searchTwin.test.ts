import { assert } from "@effect/vitest"
import { assertInvalid, withAppOnPorts } from "../../support/HttpScenarios.ts"
import { financeTeam } from "../FinanceHttpSetup.ts"
import { twinSuite } from "./TwinSuite.ts"

twinSuite("search", (it) => {
  it.effect("GET /search takes the twin's searchTerm; its language and relevance parameters are ignored", () =>
    withAppOnPorts(async (app) => {
      const acme = await financeTeam(app)
      const created = await app.call("POST", "/transactions", {
        token: acme.owner,
        body: { name: "Acme Supplies", amount: -12, currency: "USD", date: "2026-03-01" }
      })
      assert.strictEqual(created.status, 201, JSON.stringify(created.body))
      const found = await app.call(
        "GET",
        "/search?searchTerm=Acme&language=en&limit=30&itemsPerTableLimit=5&relevanceThreshold=0.01",
        { token: acme.owner }
      )
      assert.strictEqual(found.status, 200, JSON.stringify(found.body))
      assert.deepStrictEqual(
        found.body.data.map((hit: { id: string }) => hit.id),
        [created.body.id]
      )
      const byQ = await app.call("GET", "/search?q=acme", { token: acme.owner })
      assert.deepStrictEqual(byQ.body, found.body)
      assertInvalid(await app.call("GET", "/search", { token: acme.owner }), "query.q")
      assertInvalid(await app.call("GET", "/search?searchTerm=", { token: acme.owner }), "query.searchTerm")
      assertInvalid(await app.call("GET", "/search?searchTerm=acme&limit=1000", { token: acme.owner }), "query.limit")
    })
  )
})

import { assert } from "@effect/vitest"
import { withAppOnPorts } from "../../support/HttpScenarios.ts"
import { financeTeam } from "../FinanceHttpSetup.ts"
import { twinSuite } from "./TwinSuite.ts"

twinSuite("tags", (it) => {
  it.effect("GET /tags/{id} reads one tag of the team; another team's or an unknown id is 404", () =>
    withAppOnPorts(async (app) => {
      const acme = await financeTeam(app)
      const other = await financeTeam(app)
      const created = await app.call("POST", "/tags", { token: acme.owner, body: { name: "travel" } })
      assert.strictEqual(created.status, 201, JSON.stringify(created.body))
      const read = await app.call("GET", `/tags/${created.body.id}`, { token: acme.owner })
      assert.strictEqual(read.status, 200, JSON.stringify(read.body))
      assert.deepStrictEqual(read.body, { id: created.body.id, name: "travel" })
      const foreign = await app.call("GET", `/tags/${created.body.id}`, { token: other.owner })
      assert.strictEqual(foreign.status, 404)
      assert.strictEqual(foreign.body.error, "not_found")
      assert.strictEqual(
        (await app.call("GET", "/tags/00000000-0000-4000-8000-000000000000", { token: acme.owner })).status,
        404
      )
      assert.strictEqual((await app.call("GET", "/tags/not-a-uuid", { token: acme.owner })).status, 400)
    })
  )
})

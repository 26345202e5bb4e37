import { assert } from "@effect/vitest"
import { assertInvalid, withAppOnPorts } from "../../support/HttpScenarios.ts"
import { financeTeam } from "../FinanceHttpSetup.ts"
import { twinSuite } from "./TwinSuite.ts"

twinSuite("bank accounts", (it) => {
  it.effect("the twin's create with manual: true, list with manual and pageSize, read, update, delete", () =>
    withAppOnPorts(async (app) => {
      const acme = await financeTeam(app)
      const opened = await app.call("POST", "/bank-accounts", {
        token: acme.owner,
        body: { name: "Petty cash", currency: "USD", manual: true }
      })
      assert.strictEqual(opened.status, 201, JSON.stringify(opened.body))
      assert.isTrue(opened.body.manual)
      const second = await app.call("POST", "/bank-accounts", {
        token: acme.owner,
        body: { name: "Card float", currency: "EUR", manual: true }
      })
      assert.strictEqual(second.status, 201, JSON.stringify(second.body))
      assertInvalid(
        await app.call("POST", "/bank-accounts", {
          token: acme.owner,
          body: { name: "Connected", currency: "USD", manual: false }
        }),
        "manual"
      )

      const page = await app.call("GET", "/bank-accounts?manual=true&enabled=true&pageSize=1", { token: acme.owner })
      assert.strictEqual(page.status, 200, JSON.stringify(page.body))
      assert.deepStrictEqual(
        page.body.data.map((a: { id: string }) => a.id),
        [second.body.id]
      )
      assert.isTrue(page.body.meta.hasNextPage)

      const read = await app.call("GET", `/bank-accounts/${opened.body.id}`, { token: acme.owner })
      assert.strictEqual(read.status, 200)
      assert.strictEqual(read.body.name, "Petty cash")
      const updated = await app.call("PATCH", `/bank-accounts/${opened.body.id}`, {
        token: acme.owner,
        body: { name: "Cash box", enabled: false }
      })
      assert.strictEqual(updated.status, 200, JSON.stringify(updated.body))
      assert.strictEqual(updated.body.name, "Cash box")
      assert.isFalse(updated.body.enabled)
      assertInvalid(
        await app.call("PATCH", `/bank-accounts/${opened.body.id}`, { token: acme.owner, body: { currency: "EUR" } }),
        "currency"
      )
      const deleted = await app.call("DELETE", `/bank-accounts/${opened.body.id}`, { token: acme.owner })
      assert.strictEqual(deleted.status, 200, JSON.stringify(deleted.body))
      assert.strictEqual((await app.call("GET", `/bank-accounts/${opened.body.id}`, { token: acme.owner })).status, 404)
    })
  )
})

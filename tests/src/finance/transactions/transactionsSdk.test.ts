import { assert, describe, it } from "@effect/vitest"
import { createClient } from "@svc/sdk"
import { acmeApp } from "../../spend/SpendHttpSetup.ts"
import { failureOf, loopbackServer } from "../../support/LoopbackServer.ts"

const { app, acme } = acmeApp()

const server = loopbackServer(app.handler)

describe("the SDK's transactions routes", () => {
  it("creates, lists with filters and pages, updates, attaches, bulk-writes and deletes", async () => {
    const owner = createClient({ baseUrl: server.baseUrl(), token: acme.owner })
    const me = await owner.me.me()
    const teamId = me.teamId!
    const coffee = await owner.transactions.create({
      payload: { name: "Coffee", date: "2026-03-01", amount: -4.5, currency: "USD" }
    })
    assert.strictEqual(coffee.amount, -4.5)
    const created = (
      await owner.transactions.createMany({
        payload: [
          { name: "Invoice", date: "2026-03-02", amount: 1200, currency: "USD", categorySlug: "revenue" },
          { name: "Ramen", date: "2026-03-03", amount: -1500, currency: "JPY", recurring: true, frequency: "weekly" }
        ]
      })
    ).data
    assert.deepStrictEqual(
      created.map((t) => t.name),
      ["Invoice", "Ramen"]
    )
    const byAmount = await owner.transactions.list({ query: { sort: "amount", direction: "asc", limit: 2 } })
    assert.deepStrictEqual(
      byAmount.data.map((t) => t.name),
      ["Ramen", "Coffee"]
    )
    const rest = await owner.transactions.list({
      query: { sort: "amount", direction: "asc", cursor: byAmount.meta.cursor! }
    })
    assert.deepStrictEqual(
      rest.data.map((t) => t.name),
      ["Invoice"]
    )
    const filtered = await owner.transactions.list({
      query: {
        categories: "revenue,uncategorized",
        amountMin: "4.5",
        amountMax: "1200",
        currency: "USD",
        attachments: "false",
        recurring: "false"
      }
    })
    assert.deepStrictEqual(filtered.data.map((t) => t.name).toSorted(), ["Coffee", "Invoice"])
    assert.deepStrictEqual(
      (await owner.transactions.list({ query: { q: "ram", frequencies: "weekly" } })).data.map((t) => t.name),
      ["Ramen"]
    )

    const updated = await owner.transactions.update({
      params: { id: coffee.id },
      payload: { note: "team", amount: -5 }
    })
    assert.deepStrictEqual([updated.note, updated.amount], ["team", -5])
    const file = await owner.transactions.attach({
      params: { id: coffee.id },
      payload: { path: [teamId, "receipts", "coffee.png"], name: "coffee.png", size: 100, type: "image/png" }
    })
    assert.isTrue((await owner.transactions.get({ params: { id: coffee.id } })).isFulfilled)
    assert.deepStrictEqual(await owner.transactions.detach({ params: { id: coffee.id, attachmentId: file.id } }), file)

    const refused = await failureOf(
      owner.transactions.createMany({ payload: [{ name: "X", date: "2026-03-01", amount: 0.001, currency: "USD" }] })
    )
    assert.strictEqual(refused.status, 400)
    const statuses = (
      await owner.transactions.updateMany({ payload: created.map((t) => ({ id: t.id, status: "completed" as const })) })
    ).data
    assert.deepStrictEqual(
      statuses.map((t) => t.status),
      ["completed", "completed"]
    )
    assert.deepStrictEqual(
      (await owner.transactions.deleteMany({ payload: created.map((t) => t.id) })).data.map((t) => t.id).toSorted(),
      created.map((t) => t.id).toSorted()
    )
    assert.strictEqual((await owner.transactions.delete({ params: { id: coffee.id } })).id, coffee.id)
    assert.strictEqual((await failureOf(owner.transactions.get({ params: { id: coffee.id } }))).status, 404)
    assert.deepStrictEqual((await owner.transactions.list({ query: {} })).data, [])
  })
})

import { assert } from "@effect/vitest"
import { withAppOnPorts } from "../../support/HttpScenarios.ts"
import { financeTeam } from "../FinanceHttpSetup.ts"
import { twinSuite } from "./TwinSuite.ts"

twinSuite("customers", (it) => {
  it.effect("a customer carries the twin's description and tags, and counts the invoices and projects naming it", () =>
    withAppOnPorts(async (app) => {
      const { owner: token } = await financeTeam(app)
      const vip = await app.call("POST", "/tags", { token, body: { name: "VIP" } })
      const enterprise = await app.call("POST", "/tags", { token, body: { name: "Enterprise" } })
      const created = await app.call("POST", "/customers", {
        token,
        body: {
          name: "Acme",
          description: "Makes anvils",
          tags: [
            { id: vip.body.id, name: "VIP" },
            { id: enterprise.body.id, name: "whatever the client thought" }
          ]
        }
      })
      assert.strictEqual(created.status, 201, JSON.stringify(created.body))
      assert.deepInclude(created.body, {
        description: "Makes anvils",
        tags: [
          { id: enterprise.body.id, name: "Enterprise" },
          { id: vip.body.id, name: "VIP" }
        ],
        invoiceCount: 0,
        projectCount: 0
      })
      const id = created.body.id
      const plain = await app.call("POST", "/customers", { token, body: { name: "Plain" } })
      assert.deepInclude(plain.body, { description: null, tags: [], invoiceCount: 0, projectCount: 0 })
      for (const _ of [1, 2]) {
        const invoice = await app.call("POST", "/invoices", { token, body: { customerId: id } })
        assert.strictEqual(invoice.status, 201, JSON.stringify(invoice.body))
      }
      const project = await app.call("POST", "/tracker-projects", { token, body: { name: "Site", customerId: id } })
      assert.strictEqual(project.status, 201, JSON.stringify(project.body))

      const read = await app.call("GET", `/customers/${id}`, { token })
      assert.deepInclude(read.body, { invoiceCount: 2, projectCount: 1 })
      const list = await app.call("GET", "/customers", { token })
      assert.strictEqual(list.status, 200, JSON.stringify(list.body))
      const counts = Object.fromEntries(
        list.body.data.map((c: { name: string; invoiceCount: number; projectCount: number; tags: unknown }) => [
          c.name,
          [c.invoiceCount, c.projectCount, c.tags]
        ])
      )
      assert.deepStrictEqual(counts, {
        Acme: [2, 1, read.body.tags],
        Plain: [0, 0, []]
      })

      const retagged = await app.call("PATCH", `/customers/${id}`, {
        token,
        body: { tags: [{ id: vip.body.id }], description: null }
      })
      assert.strictEqual(retagged.status, 200, JSON.stringify(retagged.body))
      assert.deepInclude(retagged.body, { description: null, tags: [{ id: vip.body.id, name: "VIP" }] })
      const kept = await app.call("PATCH", `/customers/${id}`, { token, body: { name: "Acme Inc" } })
      assert.deepStrictEqual(kept.body.tags, [{ id: vip.body.id, name: "VIP" }])
      assert.strictEqual((await app.call("DELETE", `/tags/${vip.body.id}`, { token })).status, 200)
      assert.deepStrictEqual((await app.call("GET", `/customers/${id}`, { token })).body.tags, [])
    })
  )

  it.effect("a tag that is not the team's is 404 naming tags[i].id, a malformed one 400; nothing is saved", () =>
    withAppOnPorts(async (app) => {
      const acme = await financeTeam(app)
      const other = await financeTeam(app)
      const own = await app.call("POST", "/tags", { token: acme.owner, body: { name: "mine" } })
      const foreign = await app.call("POST", "/tags", { token: other.owner, body: { name: "theirs" } })
      const refused = await app.call("POST", "/customers", {
        token: acme.owner,
        body: { name: "Acme", tags: [{ id: own.body.id }, { id: foreign.body.id }] }
      })
      assert.strictEqual(refused.status, 404, JSON.stringify(refused.body))
      assert.include(refused.body.message, "tags[1].id")
      assert.deepStrictEqual((await app.call("GET", "/customers", { token: acme.owner })).body.data, [])

      const customer = await app.call("POST", "/customers", {
        token: acme.owner,
        body: { name: "Acme", tags: [{ id: own.body.id }] }
      })
      const patch = await app.call("PATCH", `/customers/${customer.body.id}`, {
        token: acme.owner,
        body: { tags: [{ id: foreign.body.id }] }
      })
      assert.strictEqual(patch.status, 404)
      assert.include(patch.body.message, "tags[0].id")
      const malformed = await app.call("PATCH", `/customers/${customer.body.id}`, {
        token: acme.owner,
        body: { tags: [{ id: "not-a-uuid" }] }
      })
      assert.strictEqual(malformed.status, 400)
      assert.include(JSON.stringify(malformed.body), "tags")
      const unchanged = await app.call("GET", `/customers/${customer.body.id}`, { token: acme.owner })
      assert.deepStrictEqual(unchanged.body.tags, [{ id: own.body.id, name: "mine" }])
    })
  )
})

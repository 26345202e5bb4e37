import { assert, layer } from "@effect/vitest"
import type { Ports } from "@svc/api"
import type { Layer } from "effect"
import { assertInvalid, setUpKeyedTeam, withAppOnPorts } from "../../support/HttpScenarios.ts"

const full = {
  name: "Globex Corporation",
  email: "billing@globex.example",
  billingEmail: "ap@globex.example",
  phone: "+1 555 0100",
  website: "https://globex.example",
  contact: "Hank Scorpio",
  addressLine1: "1 Cypress Creek",
  addressLine2: "Suite 100",
  city: "Cypress Creek",
  state: "OR",
  zip: "97000",
  countryCode: "US",
  vatNumber: "US123456",
  note: "pays on net 30",
  description: "Sells everything"
}

/** The customer routes over HTTP on whichever ports the caller provides. */
export const customersHttpSuite = <E>(name: string, ports: Layer.Layer<Ports, E>) =>
  layer(ports, { timeout: "120 seconds", excludeTestServices: true })(`customers over HTTP (${name})`, (it) => {
    it.effect("create, read, list with a text filter and cursor, update (null clears), delete", () =>
      withAppOnPorts(async (app) => {
        const acme = await setUpKeyedTeam(app)
        const token = acme.owner
        const created = await app.call("POST", "/customers", { token, body: full })
        assert.strictEqual(created.status, 201, JSON.stringify(created.body))
        const customer = created.body
        assert.deepStrictEqual(customer, {
          id: customer.id,
          object: "customer",
          ...full,
          tags: [],
          invoiceCount: 0,
          projectCount: 0,
          createdAt: customer.createdAt,
          updatedAt: customer.createdAt
        })
        const bare = await app.call("POST", "/customers", { token, body: { name: "Initech" } })
        assert.strictEqual(bare.status, 201)
        assert.deepInclude(bare.body, { name: "Initech", email: null, website: null, countryCode: null, note: null })
        const third = await app.call("POST", "/customers", {
          token,
          body: { name: "Umbrella", email: "u@umbrella.example" }
        })

        assert.deepStrictEqual((await app.call("GET", `/customers/${customer.id}`, { token })).body, customer)
        const page = await app.call("GET", "/customers?limit=2", { token })
        assert.deepStrictEqual(
          page.body.data.map((c: { name: string }) => c.name),
          ["Umbrella", "Initech"]
        )
        assert.isTrue(page.body.meta.hasNextPage)
        const rest = await app.call("GET", `/customers?limit=2&cursor=${page.body.meta.cursor}`, { token })
        assert.deepStrictEqual(
          rest.body.data.map((c: { name: string }) => c.name),
          ["Globex Corporation"]
        )
        const found = await app.call("GET", "/customers?q=UMBRELLA", { token })
        assert.deepStrictEqual(
          found.body.data.map((c: { id: string }) => c.id),
          [third.body.id]
        )
        const byEmail = await app.call("GET", "/customers?q=globex.example", { token })
        assert.deepStrictEqual(
          byEmail.body.data.map((c: { id: string }) => c.id),
          [customer.id]
        )
        assert.deepStrictEqual((await app.call("GET", "/customers?q=100%25", { token })).body.data, [])

        const updated = await app.call("PATCH", `/customers/${customer.id}`, {
          token,
          body: { name: "Globex", note: null, city: "Springfield" }
        })
        assert.strictEqual(updated.status, 200, JSON.stringify(updated.body))
        assert.deepStrictEqual(updated.body, {
          ...customer,
          name: "Globex",
          note: null,
          city: "Springfield",
          updatedAt: updated.body.updatedAt
        })
        assert.deepStrictEqual((await app.call("GET", `/customers/${customer.id}`, { token })).body, updated.body)

        const deleted = await app.call("DELETE", `/customers/${customer.id}`, { token })
        assert.deepStrictEqual(deleted.body, { id: customer.id, object: "customer", deleted: true })
        assert.strictEqual((await app.call("GET", `/customers/${customer.id}`, { token })).status, 404)
        assert.strictEqual((await app.call("DELETE", `/customers/${customer.id}`, { token })).status, 404)
      })
    )

    it.effect("bad input names the field and stores nothing; another team's customer is 404; scopes hold", () =>
      withAppOnPorts(async (app) => {
        const acme = await setUpKeyedTeam(app)
        const globex = await setUpKeyedTeam(app)
        const token = acme.owner
        const cases: ReadonlyArray<[unknown, string]> = [
          [{}, "name"],
          [{ name: "" }, "name"],
          [{ name: " padded " }, "name"],
          [{ name: "x".repeat(201) }, "name"],
          [{ name: "A", email: "not-an-email" }, "email"],
          [{ name: "A", website: "ftp://files.example" }, "website"],
          [{ name: "A", countryCode: "usa" }, "countryCode"],
          [{ name: "A", color: "red" }, "color"]
        ]
        for (const [body, field] of cases) {
          assertInvalid(await app.call("POST", "/customers", { token, body }), field)
        }
        assert.deepStrictEqual((await app.call("GET", "/customers", { token })).body.data, [])

        const theirs = (await app.call("POST", "/customers", { token: globex.owner, body: { name: "Theirs" } })).body
        for (const [method, body] of [
          ["GET", undefined],
          ["PATCH", { name: "Mine now" }],
          ["DELETE", undefined]
        ] as const) {
          const answer = await app.call(method, `/customers/${theirs.id}`, { token, ...(body ? { body } : {}) })
          assert.strictEqual(answer.status, 404, `${method} ${JSON.stringify(answer.body)}`)
        }
        assert.strictEqual(
          (await app.call("GET", `/customers/${theirs.id}`, { token: globex.owner })).body.name,
          "Theirs"
        )
        assertInvalid(await app.call("GET", "/customers/42", { token }), "params.id")
        assertInvalid(await app.call("PATCH", `/customers/${theirs.id}`, { token, body: { name: null } }), "name")

        const reader = await app.call("POST", "/api-keys", {
          token,
          body: { name: "reader", scopes: ["customers.read"] }
        })
        assert.strictEqual((await app.call("GET", "/customers", { token: reader.body.secret })).status, 200)
        const refused = await app.call("POST", "/customers", { token: reader.body.secret, body: { name: "B" } })
        assert.strictEqual(refused.status, 403)
        assert.strictEqual(refused.body.error, "insufficient_scope")
        assert.strictEqual((await app.call("GET", "/customers")).status, 401)
      })
    )
  })

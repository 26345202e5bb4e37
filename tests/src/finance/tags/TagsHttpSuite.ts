import { assert, layer } from "@effect/vitest"
import type { Ports } from "@svc/api"
import type { Layer } from "effect"
import { assertInvalid, withAppOnPorts } from "../../support/HttpScenarios.ts"
import { assertNeedsScope, financeTeam, scopedKey } from "../FinanceHttpSetup.ts"

/** The tags routes over HTTP, on the given ports. */
export const tagsHttpSuite = <E>(name: string, ports: Layer.Layer<Ports, E>) =>
  layer(ports, { timeout: "120 seconds", excludeTestServices: true })(`tags over HTTP (${name})`, (it) => {
    it.effect("create, list as {data} by name, rename, delete; names unique per team", () =>
      withAppOnPorts(async (app) => {
        const acme = await financeTeam(app)
        const other = await financeTeam(app)
        const travel = await app.call("POST", "/tags", { token: acme.owner, body: { name: "travel" } })
        assert.strictEqual(travel.status, 201, JSON.stringify(travel.body))
        assert.deepStrictEqual(Object.keys(travel.body).toSorted(), ["id", "name"])
        const client = await app.call("POST", "/tags", { token: acme.owner, body: { name: "client-a" } })
        const duplicate = await app.call("POST", "/tags", { token: acme.owner, body: { name: "travel" } })
        assert.strictEqual(duplicate.status, 409)
        assert.strictEqual(duplicate.body.error, "name_taken")
        assert.strictEqual(
          (await app.call("POST", "/tags", { token: other.owner, body: { name: "travel" } })).status,
          201
        )

        const listed = await app.call("GET", "/tags", { token: acme.owner })
        assert.strictEqual(listed.status, 200)
        assert.deepStrictEqual(listed.body, {
          data: [
            { id: client.body.id, name: "client-a" },
            { id: travel.body.id, name: "travel" }
          ]
        })

        const renamed = await app.call("PATCH", `/tags/${travel.body.id}`, {
          token: acme.owner,
          body: { name: "trips" }
        })
        assert.deepStrictEqual(renamed.body, { id: travel.body.id, name: "trips" })
        const onto = await app.call("PATCH", `/tags/${travel.body.id}`, {
          token: acme.owner,
          body: { name: "client-a" }
        })
        assert.strictEqual(onto.status, 409)
        assert.strictEqual(
          (await app.call("PATCH", `/tags/${travel.body.id}`, { token: other.owner, body: { name: "x" } })).status,
          404,
          "another team's tag"
        )
        assert.strictEqual((await app.call("DELETE", `/tags/${travel.body.id}`, { token: other.owner })).status, 404)

        const deleted = await app.call("DELETE", `/tags/${travel.body.id}`, { token: acme.owner })
        assert.deepStrictEqual(deleted.body, { id: travel.body.id, name: "trips" })
        assert.strictEqual((await app.call("DELETE", `/tags/${travel.body.id}`, { token: acme.owner })).status, 404)
        assert.deepStrictEqual((await app.call("GET", "/tags", { token: acme.owner })).body.data, [
          { id: client.body.id, name: "client-a" }
        ])

        assertInvalid(await app.call("POST", "/tags", { token: acme.owner, body: { name: "" } }), "name")
        assertInvalid(await app.call("POST", "/tags", { token: acme.owner, body: { name: " padded " } }), "name")
        assertInvalid(await app.call("POST", "/tags", { token: acme.owner, body: {} }), "name")
        assertInvalid(await app.call("DELETE", "/tags/123", { token: acme.owner }), "params.id")
      })
    )

    it.effect("API keys and OAuth need tags.read and tags.write", () =>
      withAppOnPorts(async (app) => {
        const acme = await financeTeam(app)
        const reader = await scopedKey(app, acme, ["tags.read"])
        const writer = await scopedKey(app, acme, ["tags.write"])
        assert.strictEqual((await app.call("GET", "/tags", { token: reader })).status, 200)
        assertNeedsScope(await app.call("GET", "/tags", { token: writer }), "tags.read")
        assertNeedsScope(await app.call("POST", "/tags", { token: reader, body: { name: "x" } }), "tags.write")
        assert.strictEqual((await app.call("POST", "/tags", { token: writer, body: { name: "x" } })).status, 201)
      })
    )
  })

import { assert, layer } from "@effect/vitest"
import type { Ports } from "@svc/api"
import type { Layer } from "effect"
import { assertInvalid, type Client, setUpKeyedTeam, withAppOnPorts } from "../../support/HttpScenarios.ts"
import { assertNeedsScope } from "../FinanceHttpSetup.ts"

const post = async (app: Client, token: string, path: string, body: Record<string, unknown>) => {
  const created = await app.call("POST", path, { token, body })
  assert.strictEqual(created.status, 201, JSON.stringify(created.body))
  return created.body
}

const transaction = (app: Client, token: string, body: Record<string, unknown>) =>
  post(app, token, "/transactions", { date: "2026-03-01", amount: -4.5, currency: "USD", ...body })

type Hit = { type: string; id: string; title: string; rank: number }

const search = async (app: Client, token: string, query: string) => {
  const answer = await app.call("GET", `/search?${query}`, { token })
  assert.strictEqual(answer.status, 200, JSON.stringify(answer.body))
  const hits: ReadonlyArray<Hit> = answer.body.data
  for (const [i, hit] of hits.entries()) {
    if (i > 0) assert.isAtMost(hit.rank, hits[i - 1]?.rank ?? Number.POSITIVE_INFINITY, "best rank first")
  }
  return answer.body.data as ReadonlyArray<Hit & Record<string, unknown>>
}

/** GET /search over HTTP on whichever ports the caller provides. */
export const searchHttpSuite = <E>(name: string, ports: Layer.Layer<Ports, E>) =>
  layer(ports, { timeout: "120 seconds", excludeTestServices: true })(`search over HTTP (${name})`, (it) => {
    it.effect("ranks a title hit above a body hit, whole words above prefixes; types; limit; the result shape", () =>
      withAppOnPorts(async (app) => {
        const { owner: token } = await setUpKeyedTeam(app)
        const acmeCustomer = await post(app, token, "/customers", {
          name: "Acme Corporation",
          email: "billing@acme.example"
        })
        const globex = await post(app, token, "/customers", { name: "Globex", note: "a subsidiary of acme" })
        await post(app, token, "/customers", { name: "Initech" })
        const invoice = await transaction(app, token, {
          name: "Invoice 42",
          counterpartyName: "Acme Corporation",
          amount: 1250.5,
          date: "2026-03-04"
        })
        const acmeTools = await transaction(app, token, { name: "Acmeville tools", date: "2026-03-05" })
        await transaction(app, token, { name: "Coffee" })

        const hits = await search(app, token, "q=acme")
        assert.deepStrictEqual(
          hits.map((h) => h.id),
          [acmeCustomer.id, acmeTools.id, invoice.id, globex.id]
        )
        assert.deepStrictEqual(hits[0], {
          type: "customer",
          id: acmeCustomer.id,
          title: "Acme Corporation",
          subtitle: "billing@acme.example",
          amount: null,
          currency: null,
          date: null,
          rank: Number(hits[0]?.rank)
        })
        assert.deepStrictEqual(hits[2], {
          type: "transaction",
          id: invoice.id,
          title: "Invoice 42",
          subtitle: "Acme Corporation",
          amount: 1250.5,
          currency: "USD",
          date: "2026-03-04",
          rank: Number(hits[2]?.rank)
        })
        assert.deepStrictEqual(
          (await search(app, token, "q=ACME%20corp")).map((h) => h.id),
          [acmeCustomer.id, invoice.id],
          "every word must match, as a prefix, in any case"
        )
        assert.deepStrictEqual(
          (await search(app, token, "q=acme&types=transaction")).map((h) => h.id),
          [acmeTools.id, invoice.id]
        )
        assert.deepStrictEqual(
          (await search(app, token, "q=acme&types=customer,customer")).map((h) => h.id),
          [acmeCustomer.id, globex.id]
        )
        assert.deepStrictEqual(
          (await search(app, token, "q=acme&types=customer,transaction&limit=2")).map((h) => h.id),
          [acmeCustomer.id, acmeTools.id]
        )
        assert.deepStrictEqual(
          (await search(app, token, "q=billing.acme")).map((h) => h.id),
          [acmeCustomer.id],
          "punctuation separates words"
        )
        assert.deepStrictEqual(await search(app, token, "q=umbrella"), [])
        assert.deepStrictEqual(await search(app, token, "q=cme"), [], "words match from their start")
      })
    )

    it.effect("never answers another team's rows; bad input names the field; the scope holds", () =>
      withAppOnPorts(async (app) => {
        const acme = await setUpKeyedTeam(app)
        const globex = await setUpKeyedTeam(app)
        const token = acme.owner
        const ours = await post(app, token, "/customers", { name: "Shared Name" })
        await post(app, globex.owner, "/customers", { name: "Shared Name" })
        await transaction(app, globex.owner, { name: "Shared name transaction" })
        assert.deepStrictEqual(
          (await search(app, token, "q=shared")).map((h) => h.id),
          [ours.id]
        )

        assertInvalid(await app.call("GET", "/search?q=", { token }), "query.q")
        assertInvalid(await app.call("GET", "/search", { token }), "query.q")
        assertInvalid(await app.call("GET", `/search?q=${"a".repeat(201)}`, { token }), "query.q")
        assertInvalid(await app.call("GET", "/search?q=%20!!%20", { token }), "query.q")
        assertInvalid(await app.call("GET", "/search?q=acme&types=invoice", { token }), "query.types")
        assertInvalid(await app.call("GET", "/search?q=acme&types=", { token }), "query.types")
        for (const limit of ["0", "51", "2.5", "ten"]) {
          assertInvalid(await app.call("GET", `/search?q=acme&limit=${limit}`, { token }), "query.limit")
        }
        assert.strictEqual((await app.call("GET", "/search?q=acme&limit=50", { token })).status, 200)

        const keyOf = async (scopes: ReadonlyArray<string>) =>
          (await app.call("POST", "/api-keys", { token, body: { name: "k", scopes } })).body.secret
        assert.strictEqual(
          (await app.call("GET", "/search?q=shared", { token: await keyOf(["search.read"]) })).status,
          200
        )
        assertNeedsScope(
          await app.call("GET", "/search?q=shared", { token: await keyOf(["customers.read"]) }),
          "search.read"
        )
        assert.strictEqual((await app.call("GET", "/search?q=shared")).status, 401)
      })
    )
  })

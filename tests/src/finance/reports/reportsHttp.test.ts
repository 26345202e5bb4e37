import { afterAll, assert, describe, it, layer } from "@effect/vitest"
import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { appOnThisDatabase, inProcessApp, sessionToken } from "../../support/InProcessApp.ts"

// biome-ignore lint/suspicious/noExplicitAny: JSON schemas and bodies are walked generically
type Json = any

/** The JSON Schema subset the served document uses; the problems found (empty: valid). */
const check = (doc: Json, schema: Json, value: Json, at = "$"): Array<string> => {
  if (schema.$ref !== undefined) return check(doc, doc.components.schemas[schema.$ref.split("/").pop()], value, at)
  if (schema.anyOf !== undefined) {
    return schema.anyOf.some((option: Json) => check(doc, option, value, at).length === 0)
      ? []
      : [`${at}: matches none of anyOf`]
  }
  if (schema.enum !== undefined && !schema.enum.includes(value)) return [`${at}: ${value} not in ${schema.enum}`]
  switch (schema.type) {
    case "string":
      return typeof value === "string" ? [] : [`${at}: expected a string`]
    case "number":
      return typeof value === "number" && Number.isFinite(value) ? [] : [`${at}: expected a number`]
    case "integer":
      return Number.isInteger(value) ? [] : [`${at}: expected an integer`]
    case "boolean":
      return typeof value === "boolean" ? [] : [`${at}: expected a boolean`]
    case "array":
      return Array.isArray(value)
        ? value.flatMap((item, i) => check(doc, schema.items ?? {}, item, `${at}[${i}]`))
        : [`${at}: expected an array`]
    case "object": {
      if (typeof value !== "object" || value === null || Array.isArray(value)) return [`${at}: expected an object`]
      const properties = schema.properties ?? {}
      return [
        ...(schema.required ?? [])
          .filter((key: string) => !(key in value))
          .map((key: string) => `${at}.${key}: missing`),
        ...Object.keys(value).flatMap((key) =>
          key in properties
            ? check(doc, properties[key], value[key], `${at}.${key}`)
            : schema.additionalProperties === false
              ? [`${at}.${key}: not allowed`]
              : []
        )
      ]
    }
    default:
      return []
  }
}

const num = { type: "number" }
const str = { type: "string" }
const obj = (properties: Record<string, Json>) => ({
  type: "object",
  properties,
  required: Object.keys(properties),
  additionalProperties: false
})
const point = obj({ date: str, value: num, currency: str })
const comparison = (type: string) =>
  obj({
    summary: obj({ currentTotal: num, prevTotal: num, currency: str }),
    meta: obj({ type: { type: "string", enum: [type] }, currency: str }),
    result: {
      type: "array",
      items: obj({
        date: str,
        percentage: obj({ value: num, status: { type: "string", enum: ["negative", "neutral", "positive"] } }),
        current: point,
        previous: point
      })
    }
  })

/** SPEC.md's "Report results" shapes, written out from its text. */
const SPEC_SHAPES: Record<string, Json> = {
  "/reports/revenue": comparison("revenue"),
  "/reports/profit": comparison("profit"),
  "/reports/burn-rate": { type: "array", items: point },
  "/reports/runway": obj({ months: num, medianBurn: num }),
  "/reports/expenses": obj({
    summary: obj({ averageExpense: num, currency: str }),
    meta: obj({ type: str, currency: str }),
    result: { type: "array", items: obj({ date: str, value: num, currency: str, recurring: num, total: num }) }
  }),
  "/reports/spending": {
    type: "array",
    items: obj({ name: str, slug: str, amount: num, currency: str, color: str, percentage: num })
  }
}

const REPORTS = Object.keys(SPEC_SHAPES)
const RANGE = "from=2025-01-01&to=2025-03-31"

describe("reports over HTTP (memory)", () => {
  const app = inProcessApp()
  afterAll(() => app.dispose())

  it("bad dates, from after to, unknown currency or revenueType: 400 naming the field", async () => {
    const token = await sessionToken()
    assert.strictEqual((await app.call("POST", "/teams", { token, body: { name: "Acme" } })).status, 201)
    const cases: ReadonlyArray<readonly [string, string]> = [
      ["from=2025-02-30&to=2025-03-31", "from"],
      ["from=2025-01-01&to=31-03-2025", "to"],
      ["from=2999-01-01", "from"],
      ["from=2025-03-01&to=2025-02-28", "from"],
      [`${RANGE}&currency=XYZ`, "currency"],
      [`${RANGE}&currency=usd`, "currency"],
      [`${RANGE}&revenueType=taxed`, "revenueType"],
      ["from=2000-01-01&to=2025-03-31", "to"]
    ]
    for (const path of REPORTS) {
      for (const [query, field] of cases) {
        const answer = await app.call("GET", `${path}?${query}`, { token })
        assert.strictEqual(answer.status, 400, `${path}?${query}`)
        assert.strictEqual(answer.body.error, "validation_failed")
        assert.strictEqual(answer.body.code, 400)
        assert.include(
          answer.body.details.map((d: { path: string }) => d.path),
          `query.${field}`,
          `${path}?${query} names ${field}`
        )
      }
    }
  })

  it("no credential: 401; a key without reports.read: 403; with it: 200; a user without a team: 403", async () => {
    const token = await sessionToken()
    assert.strictEqual((await app.call("GET", `/reports/revenue?${RANGE}`)).status, 401)
    const teamless = await app.call("GET", `/reports/revenue?${RANGE}`, { token })
    assert.strictEqual(teamless.status, 403)
    assert.strictEqual(teamless.body.error, "team_required")
    await app.call("POST", "/teams", { token, body: { name: "Acme" } })
    const narrow = await app.call("POST", "/api-keys", { token, body: { name: "tags", scopes: ["tags.read"] } })
    const wide = await app.call("POST", "/api-keys", { token, body: { name: "reports", scopes: ["reports.read"] } })
    for (const path of REPORTS) {
      const refused = await app.call("GET", `${path}?${RANGE}`, { token: narrow.body.secret })
      assert.strictEqual(refused.status, 403, path)
      assert.strictEqual(refused.body.error, "insufficient_scope")
      assert.strictEqual((await app.call("GET", `${path}?${RANGE}`, { token: wide.body.secret })).status, 200, path)
    }
  })
})

layer(PortsPg.pipe(Layer.provideMerge(TestDatabase)), { timeout: "60 seconds" })(
  `reports over HTTP (${process.env.DATABASE_URL === undefined ? "embedded PGlite" : "real Postgres"})`,
  (it) => {
    it.effect("live bodies validate against the served OpenAPI schemas and SPEC.md's shapes; teams are isolated", () =>
      Effect.gen(function* () {
        const app = yield* appOnThisDatabase
        const sql = yield* SqlClient.SqlClient
        const call = (method: string, path: string, options: Parameters<typeof app.call>[2] = {}) =>
          Effect.promise(() => app.call(method, path, options))
        const token = yield* Effect.promise(() => sessionToken())
        const team = (yield* call("POST", "/teams", { token, body: { name: "Acme", baseCurrency: "EUR" } })).body
        const category = (slug: string) =>
          sql<{ id: string }>`SELECT id FROM transaction_categories WHERE team_id = ${team.id} AND slug = ${slug}`.pipe(
            Effect.map((rows) => rows[0]!.id)
          )
        const rows = [
          ["2025-01-10", 120000, yield* category("service-revenue"), 20, false],
          ["2025-01-20", -45000, yield* category("rent"), null, true],
          ["2025-03-05", -1, null, null, false],
          ["2024-01-15", 60000, yield* category("service-revenue"), null, false]
        ] as const
        for (const [date, amount, categoryId, taxRate, recurring] of rows) {
          yield* sql`
            INSERT INTO transactions (id, team_id, date, name, amount_minor, currency, status, recurring, manual,
                                      category_id, tax_rate, updated_at)
            VALUES (${crypto.randomUUID()}, ${team.id}, ${date}, 'row', ${amount}, 'EUR', 'posted', ${recurring}, true,
                    ${categoryId}, ${taxRate}, now())`
        }
        yield* sql`
          INSERT INTO bank_accounts (id, team_id, name, type, currency, balance_minor, manual, updated_at)
          VALUES (${crypto.randomUUID()}, ${team.id}, 'Main', 'depository', 'EUR', 900000, true, now())`

        const doc = (yield* call("GET", "/openapi.json")).body
        const bodies: Record<string, Json> = {}
        for (const path of REPORTS) {
          const answer = yield* call("GET", `${path}?${RANGE}&revenueType=net`, { token })
          assert.strictEqual(answer.status, 200, path)
          const served = doc.paths[path].get.responses["200"].content["application/json"].schema
          assert.deepStrictEqual(check(doc, served, answer.body), [], `${path} against the served schema`)
          assert.deepStrictEqual(check(doc, SPEC_SHAPES[path], answer.body), [], `${path} against SPEC.md`)
          bodies[path] = answer.body
        }
        // the team's base currency (EUR) is the default; net revenue 1200.00 - 1200.00 * 20 / 120 = 1000.00
        assert.deepStrictEqual(
          bodies["/reports/revenue"].result.map((r: Json) => [r.current.value, r.previous.value, r.percentage]),
          [
            [1000, 600, { value: 67, status: "positive" }],
            [0, 0, { value: 0, status: "neutral" }],
            [0, 0, { value: 0, status: "neutral" }]
          ]
        )
        // net profit of January: 1000.00 - 450.00
        assert.strictEqual(bodies["/reports/profit"].result[0].current.value, 550)
        assert.deepStrictEqual(
          bodies["/reports/burn-rate"].map((p: Json) => [p.date, p.value, p.currency]),
          [
            ["2025-01-01", 450, "EUR"],
            ["2025-02-01", 0, "EUR"],
            ["2025-03-01", 0.01, "EUR"]
          ]
        )
        assert.deepStrictEqual(bodies["/reports/expenses"].result[0], {
          date: "2025-01-01",
          value: 0,
          currency: "EUR",
          recurring: 450,
          total: 450
        })
        assert.deepStrictEqual(
          bodies["/reports/spending"].map((s: Json) => [s.slug, s.amount, s.percentage]),
          [
            ["rent", 450, 100],
            ["uncategorized", 0.01, 0]
          ]
        )

        const stranger = yield* Effect.promise(() => sessionToken())
        yield* call("POST", "/teams", { token: stranger, body: { name: "Other", baseCurrency: "EUR" } })
        const theirs = yield* call("GET", `/reports/burn-rate?${RANGE}`, { token: stranger })
        assert.deepStrictEqual(
          theirs.body.map((p: Json) => p.value),
          [0, 0, 0]
        )
        assert.deepStrictEqual((yield* call("GET", `/reports/spending?${RANGE}`, { token: stranger })).body, [])
      })
    )
  }
)

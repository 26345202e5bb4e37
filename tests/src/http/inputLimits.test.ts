import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { inProcessApp, sessionToken, testConfig } from "../support/InProcessApp.ts"

const app = inProcessApp(testConfig)
afterAll(() => app.dispose())

let owner = ""
let agent = ""
beforeAll(async () => {
  owner = await sessionToken({ email: "owner@limits.test" })
  await app.call("POST", "/teams", { token: owner, body: { name: "Acme" } })
  agent = (
    await app.call("POST", "/treasury/spending-keys", { token: owner, body: { name: "k", mode: "test", policy: {} } })
  ).body.secret
})

const idempotent = () => ({ "idempotency-key": crypto.randomUUID() })
const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`

describe("text Postgres cannot store and JSON nested too deep", () => {
  it("answers 400 naming the field for NUL or a lone surrogate in any text field", async () => {
    const spend = { amount: 100, currency: "USD", merchant: { name: "Shop" }, purpose: "ok" }
    const cases = [
      ["/v1/spend-requests", agent, { ...spend, purpose: "a\u0000" }, "purpose"],
      ["/v1/spend-requests", agent, { ...spend, metadata: { note: "\ud800" } }, "metadata.note"],
      ["/v1/spend-requests", agent, { ...spend, merchant: { name: "S\u0000" } }, "merchant.name"],
      ["/teams", owner, { name: "T\u0000" }, "name"],
      ["/treasury/spending-keys", owner, { name: "k\u0000", mode: "test", policy: {} }, "name"],
      [
        "/treasury/spending-keys",
        owner,
        { name: "k", mode: "test", policy: { allowedMerchants: ["\u0000"] } },
        "policy.allowedMerchants.0"
      ]
    ] as const
    for (const [path, token, body, field] of cases) {
      const answer = await app.call("POST", path, { token, body })
      assert.strictEqual(answer.status, 400, `${path} ${field}: ${JSON.stringify(answer.body)}`)
      assert.strictEqual(answer.body.error, "validation_failed")
      assert.strictEqual(answer.body.details[0].path, field)
    }
    const good = await app.call("POST", "/v1/spend-requests", { token: agent, body: spend, headers: idempotent() })
    assert.isBelow(good.status, 300, JSON.stringify(good.body))
  })

  it("answers OAuth registration with invalid_client_metadata", async () => {
    const answer = await app.call("POST", "/oauth/register", {
      body: { client_name: "a\u0000", redirect_uris: ["https://app.example/cb"] }
    })
    assert.strictEqual(answer.status, 400)
    assert.strictEqual(answer.body.error, "invalid_client_metadata")
    assert.include(answer.body.error_description, "client_name")
  })

  it("answers 400 invalid_json naming the limit for depth 20,000, and lets depth 64 through to decoding", async () => {
    const deep = await app.call("POST", "/teams", { token: owner, body: `{"name":"Deep","x":${nested(20_000)}}` })
    assert.strictEqual(deep.status, 400)
    assert.strictEqual(deep.body.error, "invalid_json")
    assert.include(deep.body.message, "64 levels")
    const teams = await app.call("GET", "/teams", { token: owner })
    assert.notInclude(JSON.stringify(teams.body), "Deep")
    const deepest = await app.call("POST", "/teams", { token: owner, body: `{"name":"Deep","x":${nested(63)}}` })
    assert.strictEqual(deepest.body.error, "validation_failed", "depth 64 passes the limit and reaches decoding")
    assert.strictEqual(deepest.body.details[0].path, "x")
  })
})

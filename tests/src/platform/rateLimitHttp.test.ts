import { afterAll, assert, describe, it } from "@effect/vitest"
import { appInMemory } from "@svc/api"
import { clientOf, testConfig } from "../support/InProcessApp.ts"
import { assertLimited, serve, spendingKey } from "../support/RateLimitHarness.ts"

const LIMIT = 3
const { handler, dispose } = serve(appInMemory(testConfig), { RATE_LIMIT_V1_PER_MINUTE: String(LIMIT) })
const client = clientOf(handler)
afterAll(() => dispose())

describe("/v1 rate limit (in-memory, RATE_LIMIT_V1_PER_MINUTE=3)", () => {
  it("counts every /v1 response, 401s included, then answers 429 rate_limited with Retry-After", async () => {
    const token = `svc_test_unknown_${crypto.randomUUID()}`
    for (let remaining = LIMIT - 1; remaining >= 0; remaining--) {
      const answer = await client.call("GET", "/v1/accounts", { token })
      assert.strictEqual(answer.status, 401)
      assert.strictEqual(answer.body.error, "unauthorized")
      assert.strictEqual(answer.headers.get("www-authenticate"), "Bearer")
      assertLimited(answer, LIMIT, remaining)
    }
    const refused = await client.call("GET", "/v1/accounts", { token })
    assert.strictEqual(refused.status, 429)
    assert.deepStrictEqual(Object.keys(refused.body).sort(), ["code", "error", "message"])
    assert.strictEqual(refused.body.error, "rate_limited")
    assert.strictEqual(refused.body.code, 429)
    assert.isString(refused.body.message)
    assertLimited(refused, LIMIT, 0)
    const retryAfter = Number(refused.headers.get("retry-after"))
    assert.isTrue(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 20, `Retry-After ${retryAfter}`)
  })

  it("gives a real key its own bucket; unknown tokens and no token share their client address's bucket", async () => {
    for (let i = 0; i < LIMIT + 1; i++)
      await client.call("GET", "/v1/balance", { token: `svc_test_${crypto.randomUUID()}` })
    const other = await client.call("GET", "/v1/balance", { token: `svc_test_${crypto.randomUUID()}` })
    assert.strictEqual(other.status, 429)
    assertLimited(other, LIMIT, 0)
    const anonymous = await client.call("GET", "/v1/balance")
    assert.strictEqual(anonymous.status, 429)
    assertLimited(anonymous, LIMIT, 0)
    const key = await spendingKey(client)
    const ok = await client.call("GET", "/v1/balance", { token: key })
    assert.strictEqual(ok.status, 200)
    assertLimited(ok, LIMIT, LIMIT - 1)
  })

  it("carries the headers on 200, 400, 404 and unknown-route answers of a real credential", async () => {
    const key = await spendingKey(client)
    const ok = await client.call("GET", "/v1/balance", { token: key })
    assert.strictEqual(ok.status, 200)
    assertLimited(ok, LIMIT, 2)
    const bad = await client.call("POST", "/v1/test-helpers/deposits", { token: key, body: '{"amount":' })
    assert.strictEqual(bad.status, 400)
    assertLimited(bad, LIMIT, 1)
    const missing = await client.call("GET", "/v1/no-such-route", { token: key })
    assert.strictEqual(missing.status, 404)
    assert.strictEqual(missing.body.error, "not_found")
    assertLimited(missing, LIMIT, 0)
    assert.strictEqual((await client.call("GET", "/v1/balance", { token: key })).status, 429)
  })

  it("leaves routes outside /v1 alone", async () => {
    for (let i = 0; i < LIMIT + 2; i++) {
      const answer = await client.call("GET", "/health")
      assert.strictEqual(answer.status, 200)
      assert.isNull(answer.headers.get("ratelimit-limit"))
    }
  })
})

describe("sign-in rate limit per client address (RATE_LIMIT_SIGN_IN_PER_MINUTE=3)", () => {
  const signIn = serve(appInMemory(testConfig), { RATE_LIMIT_SIGN_IN_PER_MINUTE: "3" })
  const anyone = clientOf(signIn.handler)
  afterAll(() => signIn.dispose())

  it("counts link requests and link uses together, then answers 429 with Retry-After; other routes go on", async () => {
    const linkRequest = { body: JSON.stringify({ email: `${crypto.randomUUID()}@example.com` }) }
    assert.strictEqual((await anyone.call("POST", "/auth/sign-in-links", linkRequest)).status, 202)
    assert.strictEqual((await anyone.call("POST", "/auth/sessions", { body: '{"token":"nope"}' })).status, 400)
    assert.strictEqual((await anyone.call("POST", "/auth/sign-in-links", linkRequest)).status, 202)
    for (const [path, body] of [
      ["/auth/sign-in-links", linkRequest.body],
      ["/auth/sessions", '{"token":"nope"}']
    ] as const) {
      const refused = await anyone.call("POST", path, { body })
      assert.strictEqual(refused.status, 429, path)
      assert.strictEqual(refused.body.error, "rate_limited")
      const retryAfter = Number(refused.headers.get("retry-after"))
      assert.isTrue(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`)
    }
    assert.strictEqual((await anyone.call("GET", "/auth/session")).status, 401, "reading the session is not limited")
    assert.strictEqual((await anyone.call("GET", "/health")).status, 200)
  })
})

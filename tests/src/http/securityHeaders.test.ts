import { afterAll, assert, describe, it } from "@effect/vitest"
import { appInMemory } from "@svc/api"
import { type Answer, clientOf, sessionToken, testConfig } from "../support/InProcessApp.ts"
import { serve, spendingKey } from "../support/RateLimitHarness.ts"

const plain = serve(appInMemory(testConfig), {})
const secure = serve(appInMemory({ ...testConfig, publicBaseUrl: "https://svc.example" }), {})
const app = clientOf(plain.handler)
afterAll(async () => {
  await plain.dispose()
  await secure.dispose()
})

const HSTS = "max-age=31536000; includeSubDomains"

describe("security headers", () => {
  it("nosniff and no-store on public, session, agent key, OAuth, webhook and unknown-route answers", async () => {
    const key = await spendingKey(app)
    const answers: Array<[string, Answer]> = [
      ["public", await app.call("GET", "/health")],
      ["session", await app.call("GET", "/users/me", { token: await sessionToken() })],
      ["agent key", await app.call("GET", "/v1/balance", { token: key })],
      ["unknown key", await app.call("GET", "/v1/balance", { token: "svc_test_nope" })],
      ["oauth token", await app.call("POST", "/oauth/token", { body: "{}" })],
      ["webhook", await app.call("POST", "/webhook/kyc-d", { body: "{}" })],
      ["not found", await app.call("GET", "/no-such-route")]
    ]
    assert.strictEqual(answers[2]?.[1].status, 200)
    for (const [what, answer] of answers) {
      assert.strictEqual(answer.headers.get("x-content-type-options"), "nosniff", what)
      assert.strictEqual(answer.headers.get("cache-control"), "no-store", what)
      assert.isNull(answer.headers.get("strict-transport-security"), what)
      assert.isNull(answer.headers.get("x-frame-options"), what)
    }
  })

  it("a content security policy and frame denial on /docs that still allow its scripts", async () => {
    const docs = await plain.handler(new Request("http://svc.test/docs"))
    assert.strictEqual(docs.status, 200)
    assert.strictEqual(docs.headers.get("x-frame-options"), "DENY")
    assert.strictEqual(docs.headers.get("x-content-type-options"), "nosniff")
    const policy = docs.headers.get("content-security-policy") ?? ""
    assert.include(policy, "frame-ancestors 'none'")
    assert.include(policy, "script-src 'self' 'unsafe-inline'")
    assert.include(await docs.text(), "window.Scalar.createApiReference")
  })

  it("Strict-Transport-Security when PUBLIC_BASE_URL is https or the request came over TLS", async () => {
    for (const path of ["/health", "/v1/balance"]) {
      const answer = await secure.handler(new Request(`http://svc.test${path}`))
      assert.strictEqual(answer.headers.get("strict-transport-security"), HSTS, path)
    }
    const overTls = await plain.handler(new Request("https://svc.test/health"))
    assert.strictEqual(overTls.headers.get("strict-transport-security"), HSTS)
  })
})

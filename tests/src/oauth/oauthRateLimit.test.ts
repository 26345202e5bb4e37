import { afterAll, assert, beforeAll, it } from "vitest"
import { inProcess } from "../support/OAuthHarness.ts"

let app: ReturnType<typeof inProcess>
beforeAll(() => {
  app = inProcess(3)
})
afterAll(() => app.dispose())

it("limits /oauth/* per client IP and answers 429 in the OAuth error format with Retry-After", async () => {
  const register = () =>
    app.call("POST", "/oauth/register", { json: { client_name: "x", redirect_uris: ["https://a.example/cb"] } })
  for (let i = 0; i < 3; i++) assert.strictEqual((await register()).status, 201)
  const limited = await app.call("POST", "/oauth/token", { form: { grant_type: "refresh_token", refresh_token: "x" } })
  assert.strictEqual(limited.status, 429)
  assert.strictEqual(limited.body.error, "rate_limited")
  assert.isString(limited.body.error_description)
  assert.isAtLeast(Number(limited.headers.get("retry-after")), 1)
  assert.strictEqual(
    (await app.call("GET", "/.well-known/oauth-authorization-server")).status,
    200,
    "discovery is not limited"
  )
  assert.strictEqual((await app.call("GET", "/users/me")).status, 401, "other routes are not limited by it")
})

import { afterAll, assert, describe, it } from "@effect/vitest"
import { clientForUrl } from "@svc/adapters-pg"
import { appOnPostgres } from "@svc/api"
import { Layer, Redacted } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { clientOf, sessionToken, testConfig } from "../support/InProcessApp.ts"

const { handler, dispose } = HttpRouter.toWebHandler(
  appOnPostgres(testConfig).pipe(
    Layer.provide(clientForUrl(Redacted.make("postgres://postgres@127.0.0.1:1/none"), 2)),
    Layer.provide(HttpServer.layerServices)
  ),
  { disableLogger: true }
)
const app = clientOf(handler)
afterAll(() => dispose())

describe("with the database unreachable", () => {
  it("stays alive, reports not ready, and answers 503 JSON (never 500, never internals)", async () => {
    assert.strictEqual((await app.call("GET", "/health")).status, 200)
    const ready = await app.call("GET", "/health/ready")
    assert.strictEqual(ready.status, 503)
    assert.strictEqual(ready.body.error, "service_unavailable")
    assert.strictEqual(ready.headers.get("retry-after"), "5")
    const session = await sessionToken()
    for (const [method, path, token, body] of [
      ["POST", "/teams", session, { name: "Acme" }],
      ["GET", "/users/me", session, undefined],
      ["GET", "/v1/balance", "svc_test_unknownkey", undefined],
      ["POST", "/auth/sign-in-links", undefined, { email: "lead@example.com" }],
      ["POST", "/auth/sessions", undefined, { token: "A".repeat(43) }],
      ["GET", "/auth/session", undefined, undefined],
      ["GET", "/treasury/activity", session, undefined],
      ["GET", "/treasury/spend-stats", session, undefined]
    ] as const) {
      const answer = await app.call(method, path, {
        ...(token === undefined ? { headers: { cookie: `svc_session=svcsess_${"A".repeat(43)}` } } : { token }),
        ...(body === undefined ? {} : { body })
      })
      assert.strictEqual(answer.status, 503, `${method} ${path}`)
      assert.strictEqual(answer.body.error, "service_unavailable")
      assert.strictEqual(answer.headers.get("retry-after"), "5", `${method} ${path}`)
      assert.strictEqual(answer.headers.get("x-content-type-options"), "nosniff")
      assert.notMatch(JSON.stringify(answer.body), /ECONNREFUSED|SqlError|127\.0\.0\.1|stack/iu)
    }
  }, 60_000)
})

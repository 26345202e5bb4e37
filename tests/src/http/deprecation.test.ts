import { afterAll, assert, describe, it } from "@effect/vitest"
import { DeprecationHeadersLive } from "@svc/adapters-http"
import { DeprecationHeaders, deprecated } from "@svc/adapters-http/api"
import { Effect, Layer, Schema } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"

/** The service has no deprecated route yet: a test-only group carries the annotation through the same middleware. */
const Ok = Schema.Struct({ ok: Schema.Boolean })
class LegacyApi extends HttpApiGroup.make("legacy").add(
  HttpApiEndpoint.get("old", "/old", { success: Ok }).annotateMerge(
    deprecated({ deprecatedOn: "2026-11-01", sunsetOn: "2027-05-01" })
  ),
  HttpApiEndpoint.get("current", "/current", { success: Ok })
) {}
class TestApi extends HttpApi.make("test").add(LegacyApi).middleware(DeprecationHeaders) {}

const LegacyHttp = HttpApiBuilder.group(TestApi, "legacy", (handlers) =>
  Effect.succeed(
    handlers.handle("old", () => Effect.succeed({ ok: true })).handle("current", () => Effect.succeed({ ok: true }))
  )
)

const { handler, dispose } = HttpRouter.toWebHandler(
  HttpApiBuilder.layer(TestApi).pipe(
    Layer.provide(LegacyHttp),
    Layer.provide(DeprecationHeadersLive),
    Layer.provide(HttpServer.layerServices)
  ),
  { disableLogger: true }
)
afterAll(() => dispose())

describe("a deprecated endpoint", () => {
  it("answers Deprecation (RFC 9745), Sunset (RFC 8594) and a Link to the changelog", async () => {
    const response = await handler(new Request("http://svc.test/old"))
    assert.strictEqual(response.status, 200)
    assert.strictEqual(response.headers.get("deprecation"), "@1793491200")
    assert.strictEqual(response.headers.get("sunset"), "Sat, 01 May 2027 00:00:00 GMT")
    assert.strictEqual(response.headers.get("link"), '</changelog>; rel="deprecation"; type="application/json"')
  })

  it("an endpoint that is not deprecated answers none of them", async () => {
    const response = await handler(new Request("http://svc.test/current"))
    assert.strictEqual(response.status, 200)
    for (const name of ["deprecation", "sunset", "link"]) assert.isNull(response.headers.get(name))
  })

  it("is `deprecated: true` in the OpenAPI document, and only it", () => {
    const document = OpenApi.fromApi(TestApi)
    assert.isTrue(document.paths["/old"]?.get?.deprecated)
    assert.notStrictEqual(document.paths["/current"]?.get?.deprecated, true)
  })
})

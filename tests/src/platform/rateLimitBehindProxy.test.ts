import { createServer } from "node:http"
import { NodeHttpServer } from "@effect/platform-node"
import { afterAll, assert, describe, it } from "@effect/vitest"
import { appInMemory } from "@svc/api"
import { ConfigProvider, Context, Effect, Exit, Layer, Scope } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { testConfig } from "../support/InProcessApp.ts"

const LIMIT = 2
const scopes: Array<Scope.Closeable> = []
afterAll(async () => {
  for (const scope of scopes) await Effect.runPromise(Scope.close(scope, Exit.void))
})

/** The in-memory app on a real Node server on loopback, so the peer of every request is 127.0.0.1. */
const listen = async (trustProxy: string) => {
  const scope = Effect.runSync(Scope.make())
  scopes.push(scope)
  const context = await Effect.runPromise(
    Layer.build(
      HttpRouter.serve(appInMemory(testConfig), { disableListenLog: true, disableLogger: true }).pipe(
        Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })),
        Layer.provide(
          ConfigProvider.layer(
            ConfigProvider.fromUnknown({ RATE_LIMIT_V1_PER_MINUTE: String(LIMIT), TRUST_PROXY: trustProxy })
          )
        )
      )
    ).pipe(Scope.provide(scope))
  )
  const baseUrl = HttpServer.formatAddress(Context.get(context, HttpServer.HttpServer).address)
  return async (forwardedFor?: string) => {
    const headers: Record<string, string> = { authorization: `Bearer svc_test_${crypto.randomUUID()}` }
    if (forwardedFor !== undefined) headers["x-forwarded-for"] = forwardedFor
    const response = await fetch(`${baseUrl}/v1/balance`, { headers })
    await response.body?.cancel()
    return response.status
  }
}

describe(`the per-address limit of unknown /v1 credentials (RATE_LIMIT_V1_PER_MINUTE=${LIMIT})`, () => {
  it("follows X-Forwarded-For when the peer is a trusted proxy", async () => {
    const call = await listen("127.0.0.1, ::1")
    assert.deepStrictEqual(
      [await call("203.0.113.1"), await call("203.0.113.1"), await call("203.0.113.1")],
      [401, 401, 429]
    )
    assert.strictEqual(await call("203.0.113.2"), 401, "another client behind the proxy has its own bucket")
    assert.strictEqual(await call("198.51.100.7, 203.0.113.2"), 401, "a spoofed left-most entry is not the client")
    assert.strictEqual(await call("203.0.113.2"), 429)
    assert.strictEqual(await call(), 401, "the proxy's own requests count for the proxy")
  })

  it("ignores X-Forwarded-For from a peer that is not a trusted proxy", async () => {
    const call = await listen("10.0.0.0/8")
    assert.deepStrictEqual([await call("203.0.113.1"), await call("203.0.113.2")], [401, 401])
    assert.strictEqual(await call("203.0.113.3"), 429, "every forged address shares the peer's bucket")
    assert.strictEqual(await call(), 429)
  })
})

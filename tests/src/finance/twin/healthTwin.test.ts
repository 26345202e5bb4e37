import { assert, describe, it as vitest } from "@effect/vitest"
import { Readiness } from "@svc/adapters-http"
import { PortsMemory } from "@svc/adapters-memory"
import { appLayer } from "@svc/api"
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { withAppOnPorts } from "../../support/HttpScenarios.ts"
import { clientOf, testConfig } from "../../support/InProcessApp.ts"
import { twinSuite } from "./TwinSuite.ts"

twinSuite("/health/dependencies", (it) => {
  it.effect("answers each dependency healthy with its latency, and nothing internal", () =>
    withAppOnPorts(async (app) => {
      const answer = await app.call("GET", "/health/dependencies")
      assert.strictEqual(answer.status, 200, JSON.stringify(answer.body))
      assert.strictEqual(answer.body.status, "ok")
      assert.isFalse(Number.isNaN(Date.parse(answer.body.timestamp)))
      assert.deepStrictEqual(
        answer.body.dependencies.map((d: { name: string; healthy: boolean }) => [d.name, d.healthy]),
        [["database", true]]
      )
      assert.isAtLeast(answer.body.dependencies[0].latencyMs, 0)
    })
  )
})

describe("/health/dependencies with a dependency down", () => {
  vitest("answers 503 with the error body and the report naming it", async () => {
    const down = Layer.succeed(Readiness, {
      dependencies: [
        { name: "database", check: Effect.succeed(false) },
        { name: "memory", check: Effect.succeed(true) }
      ]
    })
    const { handler, dispose } = HttpRouter.toWebHandler(
      appLayer(testConfig, PortsMemory, down).pipe(Layer.provide(HttpServer.layerServices)),
      { disableLogger: true }
    )
    try {
      const answer = await clientOf(handler).call("GET", "/health/dependencies")
      assert.strictEqual(answer.status, 503)
      assert.deepInclude(answer.body, {
        error: "service_unavailable",
        code: 503,
        message: "not answering: database",
        status: "unhealthy"
      })
      assert.deepStrictEqual(
        answer.body.dependencies.map((d: { name: string; healthy: boolean }) => [d.name, d.healthy]),
        [
          ["database", false],
          ["memory", true]
        ]
      )
      assert.strictEqual(answer.headers.get("retry-after"), "5")
    } finally {
      await dispose()
    }
  })
})

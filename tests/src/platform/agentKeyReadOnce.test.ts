import { afterAll, assert, describe, it } from "@effect/vitest"
import { Readiness } from "@svc/adapters-http"
import { PortsMemory } from "@svc/adapters-memory"
import { appLayer } from "@svc/api"
import { AgentKeysRepo } from "@svc/domain"
import { Effect, Layer } from "effect"
import { clientOf, testConfig } from "../support/InProcessApp.ts"
import { serve, spendingKey } from "../support/RateLimitHarness.ts"

/** The in-memory ports, with the agent-key lookups by secret counted. */
let lookups = 0
const CountedPorts = Layer.effect(
  AgentKeysRepo,
  AgentKeysRepo.useSync((repo) =>
    AgentKeysRepo.of({
      ...repo,
      findBySecretHash: (hash) =>
        Effect.andThen(
          Effect.sync(() => lookups++),
          repo.findBySecretHash(hash)
        )
    })
  )
).pipe(Layer.provideMerge(PortsMemory))

const { handler, dispose } = serve(
  appLayer(
    testConfig,
    CountedPorts,
    Layer.succeed(Readiness, { dependencies: [{ name: "database", check: Effect.succeed(true) }] })
  ),
  {}
)
const client = clientOf(handler)
afterAll(() => dispose())

describe("a /v1 request reads its agent key once", () => {
  it("the rate limit's lookup serves authentication too, for a known key and for an unknown one", async () => {
    const key = await spendingKey(client)
    for (const [token, status] of [
      [key, 200],
      [`svc_test_${crypto.randomUUID()}`, 401]
    ] as const) {
      lookups = 0
      const answer = await client.call("GET", "/v1/balance", { token })
      assert.strictEqual(answer.status, status)
      assert.strictEqual(lookups, 1)
    }
  })
})

import { assert, describe, it } from "@effect/vitest"
import { createClient, verifyWebhook, WebhookVerificationError } from "@svc/sdk"
import { Effect } from "effect"
import { inProcessApp, sessionToken, testConfig } from "../support/InProcessApp.ts"
import { loopbackServer } from "../support/LoopbackServer.ts"
import { receiver } from "../support/Receiver.ts"

/** Delivery workers polling fast, and loopback receivers allowed (development mode). */
const app = inProcessApp(testConfig, {
  WEBHOOK_SIGNING_KEY: "test-webhook-signing-key",
  WEBHOOK_POLL_INTERVAL_MS: "20",
  WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: "true"
})
const server = loopbackServer(app.handler)

describe("verifying the service's own webhook deliveries with the SDK", () => {
  it.effect("verifies and decodes a delivered spend_request.approved, under the old and the rotated secret", () =>
    Effect.gen(function* () {
      const hook = yield* receiver(() => ({ status: 200 }))
      const session = createClient({ baseUrl: server.baseUrl(), token: yield* Effect.promise(() => sessionToken()) })
      const { endpoint, key } = yield* Effect.promise(async () => {
        await session.teams.create({ payload: { name: "Acme" } })
        const key = await session.agentKeys.createSpendingKey({ payload: { name: "agent", mode: "test", policy: {} } })
        const endpoint = await session.webhookEndpoints.create({
          payload: { url: hook.url, eventTypes: ["spend_request.approved"] }
        })
        return { endpoint, key }
      })
      const agent = createClient({ baseUrl: server.baseUrl(), token: key.secret })
      const spend = (purpose: string) =>
        Effect.promise(() =>
          agent.spendRequests.create({
            payload: { amount: 1999, currency: "USD", merchant: { name: "OpenAI", category: "software" }, purpose }
          })
        )
      yield* Effect.promise(() => agent.testHelpers.deposit({ payload: { amount: 10_000, currency: "USD" } }))

      const first = yield* spend("API tokens")
      const delivered = yield* hook.arrival(0)
      const event = yield* Effect.promise(() => verifyWebhook(endpoint.secret, delivered.headers, delivered.body))
      assert.strictEqual(event.type, "spend_request.approved")
      assert.strictEqual(event.id, delivered.headers["webhook-id"])
      if (event.type !== "spend_request.approved") return
      assert.deepStrictEqual(event.data, first, "the event carries the request as the API answers it")
      assert.strictEqual(event.mode, "test")

      const tampered = yield* Effect.flip(
        Effect.tryPromise(() => verifyWebhook(endpoint.secret, delivered.headers, delivered.body.replace("1999", "1")))
      )
      assert.instanceOf(tampered.cause, WebhookVerificationError)
      assert.strictEqual((tampered.cause as WebhookVerificationError).reason, "bad_signature")

      const rotated = yield* Effect.promise(() =>
        session.webhookEndpoints.rotateSecret({ params: { id: endpoint.id } })
      )
      const second = yield* spend("more API tokens")
      const next = yield* hook.arrival(1)
      for (const secret of [endpoint.secret, rotated.secret]) {
        const verified = yield* Effect.promise(() => verifyWebhook(secret, next.headers, next.body))
        assert.strictEqual(verified.data.id, second.id)
      }
    }).pipe(Effect.scoped)
  )
})

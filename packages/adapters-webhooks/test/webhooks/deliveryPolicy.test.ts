import { assert, describe, it } from "@effect/vitest"
import {
  attemptOutcome,
  DeliveryConfig,
  InboundProcessingFailed,
  InboundRetryConfig,
  inboundRetryAt,
  WebhookSendFailed
} from "@svc/domain"
import { Webhook } from "standardwebhooks"
import { retryAfterSeconds, standardWebhooksSignature } from "../../src/webhooks/StandardWebhooksSender.ts"

const policy = { ...DeliveryConfig.defaultValue(), scheduleMs: [1_000, 10_000], jitter: 0.2 }
const NOW = Date.parse("2026-01-01T00:00:00.000Z")
const at = (iso: string) => Date.parse(iso) - NOW

describe("attemptOutcome", () => {
  it("a 2xx succeeds and records the delivery time", () => {
    const { result, disableEndpoint } = attemptOutcome(policy, 1, { status: 204, retryAfterSeconds: null }, NOW, 0.5)
    assert.strictEqual(result.status, "succeeded")
    assert.strictEqual(result.deliveredAt, new Date(NOW).toISOString())
    assert.isFalse(disableEndpoint)
  })

  it("network errors, timeouts, 408 and 5xx retry on the schedule within the jitter band", () => {
    for (const response of [
      new WebhookSendFailed({ reason: "network", message: "refused" }),
      new WebhookSendFailed({ reason: "timeout", message: "slow" }),
      { status: 408, retryAfterSeconds: null },
      { status: 500, retryAfterSeconds: null },
      { status: 502, retryAfterSeconds: 5 }
    ]) {
      for (const random of [0, 0.5, 0.999]) {
        const { result } = attemptOutcome(policy, 2, response, NOW, random)
        assert.strictEqual(result.status, "pending")
        const delay = at(result.nextAttemptAt)
        assert.isAtLeast(delay, 8_000)
        assert.isAtMost(delay, 12_000)
      }
    }
  })

  it("429 and 503 wait for Retry-After (capped), or the schedule without it", () => {
    assert.strictEqual(
      at(attemptOutcome(policy, 1, { status: 429, retryAfterSeconds: 30 }, NOW, 0.5).result.nextAttemptAt),
      30_000
    )
    assert.strictEqual(
      at(attemptOutcome(policy, 1, { status: 503, retryAfterSeconds: 7 }, NOW, 0.5).result.nextAttemptAt),
      7_000
    )
    assert.strictEqual(
      at(attemptOutcome(policy, 1, { status: 503, retryAfterSeconds: 10 ** 9 }, NOW, 0.5).result.nextAttemptAt),
      policy.maxRetryAfterMs
    )
    assert.strictEqual(
      at(attemptOutcome(policy, 1, { status: 429, retryAfterSeconds: null }, NOW, 0.5).result.nextAttemptAt),
      1_000
    )
  })

  it("gives up once the schedule is used up", () => {
    const { result } = attemptOutcome(policy, 3, { status: 500, retryAfterSeconds: null }, NOW, 0.5)
    assert.strictEqual(result.status, "failed")
    assert.strictEqual(result.attempts, 3)
  })

  it("410 fails and disables the endpoint; other 4xx fail without retry", () => {
    const gone = attemptOutcome(policy, 1, { status: 410, retryAfterSeconds: null }, NOW, 0.5)
    assert.strictEqual(gone.result.status, "failed")
    assert.isTrue(gone.disableEndpoint)
    for (const status of [400, 401, 404, 301, 302, 307]) {
      const outcome = attemptOutcome(policy, 1, { status, retryAfterSeconds: null }, NOW, 0.5)
      assert.strictEqual(outcome.result.status, "failed", String(status))
      assert.isFalse(outcome.disableEndpoint)
    }
  })

  it("a refused destination fails at once, without retry and without a status", () => {
    const refused = new WebhookSendFailed({ reason: "refused", message: "destination address is not allowed" })
    const { result, disableEndpoint } = attemptOutcome(policy, 1, refused, NOW, 0.5)
    assert.deepInclude(result, {
      status: "failed",
      attempts: 1,
      lastStatusCode: null,
      lastError: "refused: destination address is not allowed"
    })
    assert.isFalse(disableEndpoint)
  })

  it("the default schedule spans about three days", () => {
    const total = DeliveryConfig.defaultValue().scheduleMs.reduce((a, b) => a + b, 0)
    assert.isAtLeast(total, 2.5 * 86_400_000)
    assert.isAtMost(total, 3.5 * 86_400_000)
  })
})

describe("inboundRetryAt", () => {
  const inbound = { ...InboundRetryConfig.defaultValue(), maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 250 }
  const retryable = new InboundProcessingFailed({ message: "db", retryable: true })
  it("doubles from the base delay up to the cap, then parks after maxAttempts", () => {
    assert.strictEqual(at(inboundRetryAt(inbound, 1, retryable, NOW)!), 100)
    assert.strictEqual(at(inboundRetryAt(inbound, 2, retryable, NOW)!), 200)
    assert.strictEqual(at(inboundRetryAt(inbound, 3, retryable, NOW)!), 250)
    assert.isNull(inboundRetryAt(inbound, 4, retryable, NOW))
  })
  it("parks a permanent failure at once", () => {
    assert.isNull(inboundRetryAt(inbound, 1, new InboundProcessingFailed({ message: "bad", retryable: false }), NOW))
  })
})

describe("standardWebhooksSignature", () => {
  const current = `whsec_${Buffer.from("a".repeat(32)).toString("base64")}`
  const previous = `whsec_${Buffer.from("b".repeat(32)).toString("base64")}`
  it("signs so the standardwebhooks library verifies with the current and, during rotation, the previous secret", () => {
    const body = JSON.stringify({ id: "evt", type: "spend_request.approved" })
    const timestamp = Math.floor(Date.now() / 1000)
    const headers = {
      "webhook-id": "evt",
      "webhook-timestamp": String(timestamp),
      "webhook-signature": standardWebhooksSignature([current, previous], "evt", timestamp, body)
    }
    assert.deepStrictEqual(new Webhook(current).verify(body, headers), JSON.parse(body))
    assert.deepStrictEqual(new Webhook(previous).verify(body, headers), JSON.parse(body))
    assert.throws(() => new Webhook(`whsec_${Buffer.from("c".repeat(32)).toString("base64")}`).verify(body, headers))
    assert.throws(() => new Webhook(current).verify(`${body} `, headers))
  })
})

describe("retryAfterSeconds", () => {
  it("reads seconds and HTTP dates, and ignores garbage", () => {
    assert.strictEqual(retryAfterSeconds("120", NOW), 120)
    assert.strictEqual(retryAfterSeconds(new Date(NOW + 5_000).toUTCString(), NOW), 5)
    assert.isNull(retryAfterSeconds("soon", NOW))
    assert.isNull(retryAfterSeconds(null, NOW))
  })
})

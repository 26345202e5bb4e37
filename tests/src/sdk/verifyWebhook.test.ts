import { assert, describe, it } from "@effect/vitest"
import { verifyWebhook, verifyWebhookEffect, type WebhookEvent, WebhookVerificationError } from "@svc/sdk"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { Webhook } from "standardwebhooks"

const secretOf = (seed: number) =>
  `whsec_${btoa(String.fromCharCode(...Array.from({ length: 32 }, (_, i) => (i * 7 + seed) % 256)))}`
const secret = secretOf(1)
const newSecret = secretOf(2)

const event = {
  id: "evt_1",
  object: "event",
  type: "bank_connection.disconnected",
  mode: "live",
  createdAt: "2026-11-23T12:00:00.000Z",
  data: {
    id: "conn_1",
    object: "bank_connection",
    provider: "bank-aggregator-a",
    status: "disconnected",
    updatedAt: "2026-11-23T12:00:00.000Z"
  }
}
const body = JSON.stringify(event)

/** The headers the service sends, signed by the `standardwebhooks` package with each secret, at `atSeconds`. */
const signed = (
  payload: string,
  secrets: ReadonlyArray<string> = [secret],
  atSeconds = Math.floor(Date.now() / 1000)
) => ({
  "webhook-id": "evt_1",
  "webhook-timestamp": String(atSeconds),
  "webhook-signature": secrets.map((s) => new Webhook(s).sign("evt_1", new Date(atSeconds * 1000), payload)).join(" ")
})

/** The reason a verification is refused with; the test fails when it is accepted. */
const refusal = (verification: Promise<unknown>) =>
  verification.then(
    () => assert.fail("expected the delivery to be refused"),
    (e: unknown) => {
      assert.instanceOf(e, WebhookVerificationError)
      return (e as WebhookVerificationError).reason
    }
  )

describe("verifyWebhook", () => {
  it("verifies a delivery signed by the standardwebhooks package and decodes its event", async () => {
    const verified: WebhookEvent = await verifyWebhook(secret, signed(body), body)
    assert.deepStrictEqual(verified, event as unknown as WebhookEvent)
    if (verified.type !== "bank_connection.disconnected") return assert.fail("expected a bank connection event")
    assert.strictEqual(verified.data.status, "disconnected")
  })

  it("takes the raw body as bytes and the headers as a Headers object, in any case", async () => {
    const headers = new Headers(Object.entries(signed(body)).map(([k, v]) => [k.toUpperCase(), v]))
    const verified = await verifyWebhook(secret, headers, new TextEncoder().encode(body))
    assert.strictEqual(verified.id, "evt_1")
  })

  it("refuses a tampered body, another secret and a signature of another message", async () => {
    const tampered = body.replace("bank-aggregator-a", "bank-aggregator-b")
    assert.strictEqual(await refusal(verifyWebhook(secret, signed(body), tampered)), "bad_signature")
    assert.strictEqual(await refusal(verifyWebhook(newSecret, signed(body), body)), "bad_signature")
    const otherId = { ...signed(body), "webhook-id": "evt_2" }
    assert.strictEqual(await refusal(verifyWebhook(secret, otherId, body)), "bad_signature")
    const unversioned = { ...signed(body), "webhook-signature": signed(body)["webhook-signature"].slice(3) }
    assert.strictEqual(await refusal(verifyWebhook(secret, unversioned, body)), "bad_signature")
  })

  it("refuses a timestamp more than five minutes in the past or the future, and honours another tolerance", async () => {
    const now = Math.floor(Date.now() / 1000)
    assert.strictEqual(await refusal(verifyWebhook(secret, signed(body, [secret], now - 301), body)), "stale_timestamp")
    assert.strictEqual(await refusal(verifyWebhook(secret, signed(body, [secret], now + 301), body)), "stale_timestamp")
    assert.strictEqual((await verifyWebhook(secret, signed(body, [secret], now - 290), body)).id, "evt_1")
    const old = signed(body, [secret], now - 3600)
    assert.strictEqual((await verifyWebhook(secret, old, body, { toleranceSeconds: 3700 })).id, "evt_1")
  })

  it("refuses a delivery missing any of the three headers, or with an ill-formed timestamp", async () => {
    for (const name of ["webhook-id", "webhook-timestamp", "webhook-signature"] as const) {
      const { [name]: _missing, ...rest } = signed(body)
      assert.strictEqual(await refusal(verifyWebhook(secret, rest, body)), "malformed", name)
    }
    const notSeconds = { ...signed(body), "webhook-timestamp": "2026-11-23T12:00:00Z" }
    assert.strictEqual(await refusal(verifyWebhook(secret, notSeconds, body)), "malformed")
  })

  it("refuses a well-signed body that is not an event of the service", async () => {
    for (const payload of ["not json", JSON.stringify({ ...event, type: "spend_request.approved" })]) {
      assert.strictEqual(await refusal(verifyWebhook(secret, signed(payload), payload)), "malformed", payload)
    }
  })

  it("verifies a rotation's two signatures with either secret, or with both secrets given", async () => {
    const rotating = signed(body, [newSecret, secret])
    assert.strictEqual((await verifyWebhook(secret, rotating, body)).id, "evt_1")
    assert.strictEqual((await verifyWebhook(newSecret, rotating, body)).id, "evt_1")
    assert.strictEqual((await verifyWebhook([newSecret, secret], signed(body), body)).id, "evt_1")
    assert.strictEqual(await refusal(verifyWebhook(secretOf(3), rotating, body)), "bad_signature")
  })

  it.effect("reads the time from the Effect clock", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(1_800_000_000_000)
      const verified = yield* verifyWebhookEffect(secret, signed(body, [secret], 1_800_000_100), body)
      assert.strictEqual(verified.type, "bank_connection.disconnected")
      const late = yield* Effect.flip(verifyWebhookEffect(secret, signed(body, [secret], 1_800_000_301), body))
      assert.strictEqual(late.reason, "stale_timestamp")
    })
  )
})

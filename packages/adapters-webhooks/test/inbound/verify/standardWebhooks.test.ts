import { randomBytes } from "node:crypto"
import { describe, it } from "@effect/vitest"
import { Webhook } from "standardwebhooks"
import { standardWebhooks } from "../../../src/inbound/verify/StandardWebhooks.ts"
import { expectReason, hmacOf, makeRequest, NOW } from "./VerifySetup.ts"

const body = JSON.stringify({ type: "transaction.created", data: { id: "tx_1", amount: 4200 } })
const msgId = "msg_2x8Qm3"
const newWhsec = () => `whsec_${randomBytes(24).toString("base64")}`

const headersFor = (signature: string, timestamp = NOW, id = msgId) => ({
  "webhook-id": id,
  "webhook-timestamp": String(timestamp),
  "webhook-signature": signature
})

describe("Standard Webhooks, whsec_ key (banking-b, card-issuing-a, auth-stream)", () => {
  const verify = standardWebhooks("whsec")
  const secret = newWhsec()
  const sign = (key: string, timestamp = NOW, payload = body, id = msgId) =>
    new Webhook(key).sign(id, new Date(timestamp * 1000), payload)

  it.effect("accepts a signature made by the reference library", () =>
    verify(makeRequest(body, headersFor(sign(secret))), [secret], NOW)
  )

  it.effect("accepts a valid signature among several", () =>
    verify(makeRequest(body, headersFor(`v1,Zm9vYmFy v1a,abc ${sign(secret)}`)), [secret], NOW)
  )

  it.effect("accepts a timestamp exactly at the window edge", () =>
    verify(makeRequest(body, headersFor(sign(secret, NOW - 300), NOW - 300)), [secret], NOW)
  )

  it.effect("refuses a tampered body", () =>
    expectReason(verify(makeRequest(`${body} `, headersFor(sign(secret))), [secret], NOW), "invalid_signature")
  )

  it.effect("refuses a different message id", () =>
    expectReason(
      verify(makeRequest(body, headersFor(sign(secret), NOW, "msg_other")), [secret], NOW),
      "invalid_signature"
    )
  )

  it.effect("refuses the wrong secret", () =>
    expectReason(verify(makeRequest(body, headersFor(sign(newWhsec()))), [secret], NOW), "invalid_signature")
  )

  it.effect("refuses a stale timestamp", () =>
    expectReason(
      verify(makeRequest(body, headersFor(sign(secret, NOW - 301), NOW - 301)), [secret], NOW),
      "stale_timestamp"
    )
  )

  it.effect("refuses a timestamp too far in the future", () =>
    expectReason(
      verify(makeRequest(body, headersFor(sign(secret, NOW + 301), NOW + 301)), [secret], NOW),
      "stale_timestamp"
    )
  )

  it.effect("refuses a non-numeric timestamp", () =>
    expectReason(
      verify(makeRequest(body, { ...headersFor(sign(secret)), "webhook-timestamp": "yesterday" }), [secret], NOW),
      "malformed_header"
    )
  )

  it.effect("refuses a signature header without a v1 entry", () =>
    expectReason(verify(makeRequest(body, headersFor("v2,abc")), [secret], NOW), "malformed_header")
  )

  it.effect("refuses a missing webhook-id", () =>
    expectReason(
      verify(makeRequest(body, { ...headersFor(sign(secret)), "webhook-id": undefined }), [secret], NOW),
      "malformed_header"
    )
  )

  it.effect("refuses a missing signature header", () =>
    expectReason(
      verify(makeRequest(body, { "webhook-id": msgId, "webhook-timestamp": String(NOW) }), [secret], NOW),
      "missing_signature"
    )
  )

  it.effect("accepts the second of two rotated secrets", () => {
    const next = newWhsec()
    return verify(makeRequest(body, headersFor(sign(next))), [secret, next], NOW)
  })

  it.effect("reports a missing secret", () =>
    expectReason(verify(makeRequest(body, headersFor(sign(secret))), [], NOW), "secret_not_configured")
  )
})

describe("Standard Webhooks, raw key (billing-a)", () => {
  const verify = standardWebhooks("raw")
  const secret = "sk_billing_plain_secret"
  const sign = (key: string, timestamp = NOW, payload = body) =>
    new Webhook(key, { format: "raw" }).sign(msgId, new Date(timestamp * 1000), payload)

  it.effect("accepts a signature made by the reference library in raw format", () =>
    verify(makeRequest(body, headersFor(sign(secret))), [secret], NOW)
  )

  it.effect("uses the UTF-8 bytes of a non-ASCII secret", () => {
    const unicode = "clé-secrète-✓"
    const signature = `v1,${hmacOf("sha256", Buffer.from(unicode, "utf8"), `${msgId}.${NOW}.${body}`, "base64")}`
    return verify(makeRequest(body, headersFor(signature)), [unicode], NOW)
  })

  it.effect("does not base64-decode the secret", () => {
    const whsecLike = newWhsec()
    return expectReason(
      verify(
        makeRequest(body, headersFor(new Webhook(whsecLike).sign(msgId, new Date(NOW * 1000), body))),
        [whsecLike],
        NOW
      ),
      "invalid_signature"
    )
  })

  it.effect("refuses a tampered body", () =>
    expectReason(verify(makeRequest(`${body}!`, headersFor(sign(secret))), [secret], NOW), "invalid_signature")
  )

  it.effect("refuses the wrong secret", () =>
    expectReason(verify(makeRequest(body, headersFor(sign("another"))), [secret], NOW), "invalid_signature")
  )

  it.effect("refuses a stale timestamp", () =>
    expectReason(
      verify(makeRequest(body, headersFor(sign(secret, NOW - 900), NOW - 900)), [secret], NOW),
      "stale_timestamp"
    )
  )

  it.effect("refuses a timestamp too far in the future", () =>
    expectReason(
      verify(makeRequest(body, headersFor(sign(secret, NOW + 900), NOW + 900)), [secret], NOW),
      "stale_timestamp"
    )
  )

  it.effect("refuses a malformed signature header", () =>
    expectReason(verify(makeRequest(body, headersFor("v1")), [secret], NOW), "malformed_header")
  )

  it.effect("refuses a missing signature header", () =>
    expectReason(
      verify(makeRequest(body, { ...headersFor(sign(secret)), "webhook-signature": undefined }), [secret], NOW),
      "missing_signature"
    )
  )

  it.effect("accepts the second of two rotated secrets", () =>
    verify(makeRequest(body, headersFor(sign("rotated"))), [secret, "rotated"], NOW)
  )
})

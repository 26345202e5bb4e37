import { describe, it } from "@effect/vitest"
import { chatSigning } from "../../../src/inbound/verify/ChatSigning.ts"
import { expectReason, hmacOf, makeRequest, NOW } from "./VerifySetup.ts"

const verify = chatSigning()
const body = "payload=%7B%22type%22%3A%22block_actions%22%7D"
const secret = "chat-signing-secret"

const signed = (key: string, t: number = NOW, payload = body) => ({
  "x-chat-request-timestamp": String(t),
  "x-chat-signature": `v0=${hmacOf("sha256", key, `v0:${t}:${payload}`)}`
})

describe("chat request signing (/apps/chat/interactions)", () => {
  it.effect("accepts a valid signature", () => verify(makeRequest(body, signed(secret)), [secret], NOW))

  it.effect("refuses a tampered body", () =>
    expectReason(verify(makeRequest(`${body}&x=1`, signed(secret)), [secret], NOW), "invalid_signature")
  )

  it.effect("refuses the wrong secret", () =>
    expectReason(verify(makeRequest(body, signed("other")), [secret], NOW), "invalid_signature")
  )

  it.effect("refuses a stale timestamp", () =>
    expectReason(verify(makeRequest(body, signed(secret, NOW - 301)), [secret], NOW), "stale_timestamp")
  )

  it.effect("refuses a timestamp too far in the future", () =>
    expectReason(verify(makeRequest(body, signed(secret, NOW + 301)), [secret], NOW), "stale_timestamp")
  )

  it.effect("refuses a signature without the v0= prefix", () =>
    expectReason(
      verify(
        makeRequest(body, { ...signed(secret), "x-chat-signature": hmacOf("sha256", secret, `v0:${NOW}:${body}`) }),
        [secret],
        NOW
      ),
      "malformed_header"
    )
  )

  it.effect("refuses a non-numeric timestamp", () =>
    expectReason(
      verify(makeRequest(body, { ...signed(secret), "x-chat-request-timestamp": "soon" }), [secret], NOW),
      "malformed_header"
    )
  )

  it.effect("refuses a missing timestamp", () =>
    expectReason(
      verify(makeRequest(body, { ...signed(secret), "x-chat-request-timestamp": undefined }), [secret], NOW),
      "malformed_header"
    )
  )

  it.effect("refuses a missing signature", () =>
    expectReason(
      verify(makeRequest(body, { "x-chat-request-timestamp": String(NOW) }), [secret], NOW),
      "missing_signature"
    )
  )

  it.effect("accepts the second of two rotated secrets", () =>
    verify(makeRequest(body, signed("rotated")), [secret, "rotated"], NOW)
  )

  it.effect("reports a missing secret", () =>
    expectReason(verify(makeRequest(body, signed(secret)), [], NOW), "secret_not_configured")
  )
})

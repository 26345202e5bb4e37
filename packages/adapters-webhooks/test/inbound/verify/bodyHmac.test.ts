import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { bodyHmacSha1Base64 } from "../../../src/inbound/verify/BodyHmacBase64.ts"
import { bodyHmacHex } from "../../../src/inbound/verify/BodyHmacHex.ts"
import { expectReason, hmacOf, makeRequest, NOW } from "./VerifySetup.ts"

const body = JSON.stringify({ id: "evt_1", type: "transaction.updated", data: { amount: 1200 } })

for (const header of ["banking-a-signature", "kyc-b-hmac-signature", "kyc-d-signature"]) {
  describe(`body HMAC-SHA256 hex (${header})`, () => {
    const verify = bodyHmacHex(header)
    const sign = (secret: string, payload = body) => hmacOf("sha256", secret, payload)

    it.effect("accepts a valid signature", () =>
      verify(makeRequest(body, { [header]: sign("s3cret") }), ["s3cret"], NOW)
    )

    it.effect("accepts upper-case hex", () =>
      verify(makeRequest(body, { [header]: sign("s3cret").toUpperCase() }), ["s3cret"], NOW)
    )

    it.effect("refuses a tampered body", () =>
      expectReason(verify(makeRequest(`${body} `, { [header]: sign("s3cret") }), ["s3cret"], NOW), "invalid_signature")
    )

    it.effect("refuses the wrong secret", () =>
      expectReason(verify(makeRequest(body, { [header]: sign("other") }), ["s3cret"], NOW), "invalid_signature")
    )

    it.effect("refuses a truncated signature", () =>
      expectReason(
        verify(makeRequest(body, { [header]: sign("s3cret").slice(0, 32) }), ["s3cret"], NOW),
        "invalid_signature"
      )
    )

    it.effect("refuses a malformed header", () =>
      expectReason(verify(makeRequest(body, { [header]: "sha256=zz" }), ["s3cret"], NOW), "malformed_header")
    )

    it.effect("refuses a missing header", () =>
      expectReason(verify(makeRequest(body, {}), ["s3cret"], NOW), "missing_signature")
    )

    it.effect("accepts the second of two rotated secrets", () =>
      verify(makeRequest(body, { [header]: sign("new") }), ["old", "new"], NOW)
    )

    it.effect("reports a missing secret", () =>
      expectReason(verify(makeRequest(body, { [header]: sign("s3cret") }), [], NOW), "secret_not_configured")
    )
  })
}

describe("body HMAC-SHA1 base64 (banking-c)", () => {
  const header = "x-banking-c-signature"
  const verify = bodyHmacSha1Base64(header)
  const sign = (secret: string, payload = body) => hmacOf("sha1", secret, payload, "base64")

  it.effect("accepts a valid signature", () => verify(makeRequest(body, { [header]: sign("s3cret") }), ["s3cret"], NOW))

  it.effect("refuses a tampered body", () =>
    expectReason(verify(makeRequest(`${body}x`, { [header]: sign("s3cret") }), ["s3cret"], NOW), "invalid_signature")
  )

  it.effect("refuses the wrong secret", () =>
    expectReason(verify(makeRequest(body, { [header]: sign("other") }), ["s3cret"], NOW), "invalid_signature")
  )

  it.effect("refuses the hex encoding of the right MAC", () =>
    expectReason(
      verify(makeRequest(body, { [header]: hmacOf("sha1", "s3cret", body) }), ["s3cret"], NOW),
      "invalid_signature"
    )
  )

  it.effect("refuses a malformed header", () =>
    expectReason(verify(makeRequest(body, { [header]: "not base64!" }), ["s3cret"], NOW), "malformed_header")
  )

  it.effect("refuses a missing header", () =>
    expectReason(verify(makeRequest(body, { [header]: "  " }), ["s3cret"], NOW), "missing_signature")
  )

  it.effect("accepts the second of two rotated secrets", () =>
    verify(makeRequest(body, { [header]: sign("new") }), ["old", "new"], NOW)
  )

  it.effect("reports a missing secret", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(verify(makeRequest(body, { [header]: sign("s3cret") }), [], NOW))
      assert.strictEqual(error.reason, "secret_not_configured")
    })
  )
})

import { describe, it } from "@effect/vitest"
import { kycADigest as verify } from "../../../src/inbound/verify/KycADigest.ts"
import { expectReason, hmacOf, makeRequest, NOW } from "./VerifySetup.ts"

const body = JSON.stringify({ id: "evt_k1", type: "applicantReviewed", applicantId: "app_1" })
const secret = "kyc-a-secret"
const ALGS = [
  ["HMAC_SHA1_HEX", "sha1"],
  ["HMAC_SHA256_HEX", "sha256"],
  ["HMAC_SHA512_HEX", "sha512"]
] as const

const headers = (digest: string | undefined, alg: string | null = "HMAC_SHA256_HEX") => ({
  "kyc-a-payload-digest": digest,
  "kyc-a-payload-digest-alg": alg ?? undefined
})

describe("KYC-A payload digest", () => {
  for (const [alg, algorithm] of ALGS) {
    it.effect(`accepts a valid ${alg} digest`, () =>
      verify(makeRequest(body, headers(hmacOf(algorithm, secret, body), alg)), [secret], NOW)
    )
  }

  it.effect("refuses a digest computed with a different algorithm than announced", () =>
    expectReason(
      verify(makeRequest(body, headers(hmacOf("sha1", secret, body), "HMAC_SHA256_HEX")), [secret], NOW),
      "invalid_signature"
    )
  )

  it.effect("refuses a tampered body", () =>
    expectReason(
      verify(makeRequest(`${body} `, headers(hmacOf("sha256", secret, body))), [secret], NOW),
      "invalid_signature"
    )
  )

  it.effect("refuses the wrong secret", () =>
    expectReason(verify(makeRequest(body, headers(hmacOf("sha256", "nope", body))), [secret], NOW), "invalid_signature")
  )

  it.effect("refuses an unknown algorithm", () =>
    expectReason(
      verify(makeRequest(body, headers(hmacOf("sha256", secret, body), "HMAC_MD5_HEX")), [secret], NOW),
      "malformed_header"
    )
  )

  it.effect("refuses an inherited property name as algorithm", () =>
    expectReason(
      verify(makeRequest(body, headers(hmacOf("sha256", secret, body), "toString")), [secret], NOW),
      "malformed_header"
    )
  )

  it.effect("refuses a missing algorithm header", () =>
    expectReason(
      verify(makeRequest(body, headers(hmacOf("sha256", secret, body), null)), [secret], NOW),
      "malformed_header"
    )
  )

  it.effect("refuses a non-hex digest", () =>
    expectReason(verify(makeRequest(body, headers("xyz")), [secret], NOW), "malformed_header")
  )

  it.effect("refuses a missing digest header", () =>
    expectReason(verify(makeRequest(body, headers(undefined)), [secret], NOW), "missing_signature")
  )

  it.effect("accepts the second of two rotated secrets", () =>
    verify(makeRequest(body, headers(hmacOf("sha512", "next", body), "HMAC_SHA512_HEX")), [secret, "next"], NOW)
  )

  it.effect("reports a missing secret", () =>
    expectReason(verify(makeRequest(body, headers(hmacOf("sha256", secret, body))), [], NOW), "secret_not_configured")
  )
})

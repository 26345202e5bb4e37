import { describe, it } from "@effect/vitest"
import { sharedToken } from "../../../src/inbound/verify/SharedToken.ts"
import { expectReason, makeRequest, NOW } from "./VerifySetup.ts"

const header = "social-premium-secret-token"
const verify = sharedToken(header)
const body = JSON.stringify({ id: "upd_1", type: "pre_checkout_query" })

describe("shared token header (social-premium-payments)", () => {
  it.effect("accepts the configured token", () => verify(makeRequest(body, { [header]: "tok-123" }), ["tok-123"], NOW))

  it.effect("refuses a wrong token", () =>
    expectReason(verify(makeRequest(body, { [header]: "tok-124" }), ["tok-123"], NOW), "invalid_signature")
  )

  it.effect("refuses a prefix of the token", () =>
    expectReason(verify(makeRequest(body, { [header]: "tok-12" }), ["tok-123"], NOW), "invalid_signature")
  )

  it.effect("refuses a missing header", () =>
    expectReason(verify(makeRequest(body, {}), ["tok-123"], NOW), "missing_signature")
  )

  it.effect("accepts the second of two rotated tokens", () =>
    verify(makeRequest(body, { [header]: "tok-new" }), ["tok-123", "tok-new"], NOW)
  )

  it.effect("reports a missing secret", () =>
    expectReason(verify(makeRequest(body, { [header]: "tok-123" }), [], NOW), "secret_not_configured")
  )
})

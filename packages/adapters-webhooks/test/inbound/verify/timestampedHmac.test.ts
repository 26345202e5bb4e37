import { assert, describe, it } from "@effect/vitest"
import { parseTimestampedHeader, timestampedHmac } from "../../../src/inbound/verify/TimestampedHmac.ts"
import { expectReason, hmacOf, makeRequest, NOW } from "./VerifySetup.ts"

const body = JSON.stringify({ id: "evt_9", type: "invoice.paid", data: { object: { id: "in_1" } } })
const sign = (secret: string, t: number, payload = body) => hmacOf("sha256", secret, `${t}.${payload}`)

const cases = [
  { name: "payments", header: "payments-signature", tolerance: 300, secret: "whsec_paymentsSecretAsIs" },
  { name: "bank-aggregator-b", header: "bank-aggregator-b-signature", tolerance: 180, secret: "agg-b-secret" },
  { name: "kyc-c", header: "kyc-c-signature", tolerance: 300, secret: "kyc-c-secret" }
] as const

for (const { name, header, tolerance, secret } of cases) {
  describe(`timestamped HMAC t=,v1= (${name}, ${tolerance} s)`, () => {
    const verify = timestampedHmac(header, tolerance)
    const signed = (key: string, t = NOW, payload = body) => ({ [header]: `t=${t},v1=${sign(key, t, payload)}` })

    it.effect("accepts a valid signature", () => verify(makeRequest(body, signed(secret)), [secret], NOW))

    it.effect("accepts a timestamp at the window edge", () =>
      verify(makeRequest(body, signed(secret, NOW - tolerance)), [secret], NOW)
    )

    it.effect("refuses a tampered body", () =>
      expectReason(verify(makeRequest(`${body}\n`, signed(secret)), [secret], NOW), "invalid_signature")
    )

    it.effect("refuses the wrong secret", () =>
      expectReason(verify(makeRequest(body, signed("wrong")), [secret], NOW), "invalid_signature")
    )

    it.effect("refuses a stale timestamp", () =>
      expectReason(verify(makeRequest(body, signed(secret, NOW - tolerance - 1)), [secret], NOW), "stale_timestamp")
    )

    it.effect("refuses a timestamp too far in the future", () =>
      expectReason(verify(makeRequest(body, signed(secret, NOW + tolerance + 1)), [secret], NOW), "stale_timestamp")
    )

    it.effect("refuses a signature replayed with another timestamp", () =>
      expectReason(
        verify(makeRequest(body, { [header]: `t=${NOW},v1=${sign(secret, NOW - 10)}` }), [secret], NOW),
        "invalid_signature"
      )
    )

    it.effect("refuses a header without t", () =>
      expectReason(
        verify(makeRequest(body, { [header]: `v1=${sign(secret, NOW)}` }), [secret], NOW),
        "malformed_header"
      )
    )

    it.effect("refuses a non-numeric t", () =>
      expectReason(
        verify(makeRequest(body, { [header]: `t=now,v1=${sign(secret, NOW)}` }), [secret], NOW),
        "malformed_header"
      )
    )

    it.effect("refuses a missing header", () =>
      expectReason(verify(makeRequest(body, {}), [secret], NOW), "missing_signature")
    )

    it.effect("accepts the second of two rotated secrets", () =>
      verify(makeRequest(body, signed("next")), [secret, "next"], NOW)
    )

    it.effect("accepts one of several v1 values", () =>
      verify(makeRequest(body, { [header]: `t=${NOW},v1=${sign("old", NOW)},v1=${sign(secret, NOW)}` }), [secret], NOW)
    )

    it.effect("reports a missing secret", () =>
      expectReason(verify(makeRequest(body, signed(secret)), [], NOW), "secret_not_configured")
    )
  })
}

describe("kyc-c space-separated pairs", () => {
  const header = "kyc-c-signature"
  const verify = timestampedHmac(header)

  it.effect("accepts when the second pair matches the second secret", () =>
    verify(
      makeRequest(body, { [header]: `t=${NOW},v1=${sign("old", NOW)} t=${NOW},v1=${sign("new", NOW)}` }),
      ["retired", "new"],
      NOW
    )
  )

  it.effect("ignores a matching pair whose timestamp is stale", () =>
    expectReason(
      verify(
        makeRequest(body, { [header]: `t=${NOW - 400},v1=${sign("k", NOW - 400)} t=${NOW},v1=${sign("other", NOW)}` }),
        ["k"],
        NOW
      ),
      "invalid_signature"
    )
  )

  it.effect("refuses when every pair is stale", () =>
    expectReason(
      verify(makeRequest(body, { [header]: `t=${NOW - 400},v1=${sign("k", NOW - 400)}` }), ["k"], NOW),
      "stale_timestamp"
    )
  )

  it("parses pairs and ignores unknown keys", () => {
    assert.deepStrictEqual(parseTimestampedHeader("t=1,v1=AB,v0=zz t=2,v1=cd"), [
      { timestamp: "1", signatures: ["ab"] },
      { timestamp: "2", signatures: ["cd"] }
    ])
    assert.isUndefined(parseTimestampedHeader("t=1,v1=ab garbage"))
    assert.isUndefined(parseTimestampedHeader("t=1,t=2,v1=ab"))
  })
})

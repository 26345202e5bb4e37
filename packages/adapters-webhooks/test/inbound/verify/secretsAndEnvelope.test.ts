import { assert, describe, it } from "@effect/vitest"
import { Result } from "effect"
import { parseEnvelope } from "../../../src/inbound/verify/Envelope.ts"
import { parseSecretList, parseSingleSecret } from "../../../src/inbound/verify/Secrets.ts"
import { encode } from "./VerifySetup.ts"

describe("secret settings", () => {
  it("splits rotated secrets on commas and drops blanks", () => {
    assert.deepStrictEqual(parseSecretList(" old , new,,"), ["old", "new"])
    assert.deepStrictEqual(parseSecretList("whsec_abc="), ["whsec_abc="])
    assert.deepStrictEqual(parseSecretList(""), [])
    assert.deepStrictEqual(parseSecretList(undefined), [])
  })

  it("keeps a single-value setting whole", () => {
    const jwks = '{"keys":[{"kty":"EC","kid":"a"},{"kty":"EC","kid":"b"}]}'
    assert.deepStrictEqual(parseSingleSecret(` ${jwks} `), [jwks])
    assert.deepStrictEqual(parseSingleSecret("   "), [])
    assert.deepStrictEqual(parseSingleSecret(undefined), [])
  })
})

describe("JSON envelope", () => {
  const failureMessage = (body: string | Uint8Array) => {
    const result = parseEnvelope(typeof body === "string" ? encode(body) : body)
    assert.isTrue(Result.isFailure(result))
    if (Result.isFailure(result)) {
      assert.strictEqual(result.failure._tag, "WebhookPayloadError")
      assert.strictEqual(result.failure.reason, "invalid_payload")
      return result.failure.message
    }
    return ""
  }

  it("parses id and type and keeps the whole payload", () => {
    const result = parseEnvelope(encode('{"id":"evt_1","type":"card.updated","data":{"state":"OPEN"}}'))
    assert.isTrue(Result.isSuccess(result))
    if (Result.isSuccess(result)) {
      assert.strictEqual(result.success.id, "evt_1")
      assert.strictEqual(result.success.type, "card.updated")
      assert.deepStrictEqual(result.success.payload.data, { state: "OPEN" })
    }
  })

  it("refuses bodies that are not an envelope", () => {
    assert.strictEqual(failureMessage("not json"), "body is not JSON")
    assert.strictEqual(failureMessage(""), "body is not JSON")
    assert.strictEqual(failureMessage(new Uint8Array([0x7b, 0xff, 0x7d])), "body is not JSON")
    assert.strictEqual(failureMessage('[{"id":"a","type":"b"}]'), "body is not a JSON object")
    assert.strictEqual(failureMessage("null"), "body is not a JSON object")
    assert.strictEqual(failureMessage('{"type":"x"}'), "missing string field id")
    assert.strictEqual(failureMessage('{"id":42,"type":"x"}'), "missing string field id")
    assert.strictEqual(failureMessage('{"id":"","type":"x"}'), "missing string field id")
    assert.strictEqual(failureMessage('{"id":"evt_1"}'), "missing string field type")
  })
})

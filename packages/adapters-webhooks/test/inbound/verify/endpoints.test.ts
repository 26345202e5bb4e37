import { assert, describe, it } from "@effect/vitest"
import { secretEnvName } from "@svc/domain"
import { Effect } from "effect"
import {
  ChatInteractions,
  findEndpointByPath,
  InboundEndpoints,
  secretsFromEnv,
  statusForSignatureError
} from "../../../src/inbound/verify/Endpoints.ts"
import { WebhookSignatureError } from "../../../src/inbound/verify/WebhookSignatureError.ts"
import { expectReason, hmacOf, makeRequest, NOW } from "./VerifySetup.ts"

const expected = [
  ["banking-a", "WEBHOOK_SECRET_BANKING_A", 503, 400, "envelope-id"],
  ["banking-b", "WEBHOOK_SECRET_BANKING_B", 503, 400, "webhook-id-header"],
  ["banking-c", "WEBHOOK_SECRET_BANKING_C", 503, 400, "envelope-id"],
  ["inbox", "INBOX_ALLOWED_IPS", 400, 403, "payload"],
  ["card-issuing-a", "WEBHOOK_SECRET_CARD_ISSUING_A", 400, 400, "webhook-id-header"],
  ["card-issuing-a/auth-stream", "WEBHOOK_SECRET_CARD_ISSUING_A", 400, 400, "webhook-id-header"],
  ["bank-aggregator-a", "BANK_AGGREGATOR_A_JWKS", 400, 401, "envelope-id"],
  ["bank-aggregator-b", "WEBHOOK_SECRET_BANK_AGGREGATOR_B", 400, 401, "envelope-id"],
  ["billing-a", "WEBHOOK_SECRET_BILLING_A", 400, 400, "webhook-id-header"],
  ["payments", "WEBHOOK_SECRET_PAYMENTS", 400, 400, "envelope-id"],
  ["payments-identity", "WEBHOOK_SECRET_PAYMENTS_IDENTITY", 400, 400, "envelope-id"],
  ["payments-issuing", "WEBHOOK_SECRET_PAYMENTS_ISSUING", 400, 400, "envelope-id"],
  ["social-premium-payments", "WEBHOOK_SECRET_SOCIAL_PREMIUM_PAYMENTS", 400, 400, "envelope-id"],
  ["kyc-a", "WEBHOOK_SECRET_KYC_A", 400, 400, "envelope-id"],
  ["kyc-b", "WEBHOOK_SECRET_KYC_B", 400, 400, "envelope-id"],
  ["kyc-c", "WEBHOOK_SECRET_KYC_C", 400, 400, "envelope-id"],
  ["kyc-d", "WEBHOOK_SECRET_KYC_D", 400, 400, "envelope-id"]
] as const

describe("inbound endpoint registry", () => {
  it("lists exactly the 17 webhook paths with their env vars and statuses", () => {
    assert.strictEqual(InboundEndpoints.length, 17)
    assert.deepStrictEqual(
      InboundEndpoints.map((e) => [
        e.name,
        e.secretEnv,
        e.secretNotConfiguredStatus,
        e.invalidSignatureStatus,
        e.eventIdSource
      ]),
      expected.map((row) => [...row])
    )
    assert.deepStrictEqual(
      InboundEndpoints.map((e) => e.path),
      expected.map(([name]) => `/webhook/${name}`)
    )
  })

  it("derives env var names from endpoint names", () => {
    assert.strictEqual(secretEnvName("banking-b"), "WEBHOOK_SECRET_BANKING_B")
    assert.strictEqual(secretEnvName("kyc-d"), "WEBHOOK_SECRET_KYC_D")
  })

  it("reads the auth-stream's secret from card-issuing-a's variable: the issuer signs both with one secret", () => {
    const env = { WEBHOOK_SECRET_CARD_ISSUING_A: "whsec_a", WEBHOOK_SECRET_CARD_ISSUING_A_AUTH_STREAM: "whsec_b" }
    const byName = (name: string) => InboundEndpoints.find((e) => e.name === name)!
    assert.deepStrictEqual(secretsFromEnv(byName("card-issuing-a/auth-stream"), env), ["whsec_a"])
    assert.deepStrictEqual(secretsFromEnv(byName("card-issuing-a"), env), ["whsec_a"])
  })

  it("describes the chat interactions signer", () => {
    assert.strictEqual(ChatInteractions.path, "/apps/chat/interactions")
    assert.strictEqual(ChatInteractions.secretEnv, "CHAT_SIGNING_SECRET")
    assert.strictEqual(findEndpointByPath("/apps/chat/interactions"), ChatInteractions)
    assert.strictEqual(findEndpointByPath("/webhook/kyc-c")?.name, "kyc-c")
    assert.isUndefined(findEndpointByPath("/webhook/unknown"))
  })

  it("reads rotated secrets from the environment, JWKS whole", () => {
    const env = {
      WEBHOOK_SECRET_BANKING_A: "old,new",
      BANK_AGGREGATOR_A_JWKS: '{"keys":[{"kty":"EC"},{"kty":"EC"}]}',
      INBOX_ALLOWED_IPS: "10.0.0.0/8, ::1"
    }
    const byName = (name: string) => InboundEndpoints.find((e) => e.name === name)!
    assert.deepStrictEqual(secretsFromEnv(byName("banking-a"), env), ["old", "new"])
    assert.deepStrictEqual(secretsFromEnv(byName("bank-aggregator-a"), env), [env.BANK_AGGREGATOR_A_JWKS])
    assert.deepStrictEqual(secretsFromEnv(byName("inbox"), env), ["10.0.0.0/8", "::1"])
    assert.deepStrictEqual(secretsFromEnv(byName("kyc-a"), env), [])
  })

  it("maps verification failures to the endpoint's status", () => {
    const byName = (name: string) => InboundEndpoints.find((e) => e.name === name)!
    const status = (name: string, reason: WebhookSignatureError["reason"]) =>
      statusForSignatureError(byName(name), new WebhookSignatureError({ reason }))
    assert.strictEqual(status("banking-a", "secret_not_configured"), 503)
    assert.strictEqual(status("banking-a", "invalid_signature"), 400)
    assert.strictEqual(status("bank-aggregator-b", "stale_timestamp"), 401)
    assert.strictEqual(status("bank-aggregator-a", "missing_signature"), 401)
    assert.strictEqual(status("inbox", "forbidden_ip"), 403)
    assert.strictEqual(status("kyc-a", "secret_not_configured"), 400)
  })

  it.effect("every endpoint reports an unset secret", () =>
    Effect.forEach([...InboundEndpoints, ChatInteractions], (endpoint) =>
      expectReason(endpoint.verify(makeRequest("{}", {}, "127.0.0.1"), [], NOW), "secret_not_configured")
    )
  )

  it.effect("endpoints are wired to their own headers", () =>
    Effect.gen(function* () {
      const body = '{"id":"evt_1","type":"x"}'
      const byName = (name: string) => InboundEndpoints.find((e) => e.name === name)!
      const hex = hmacOf("sha256", "k", body)
      yield* byName("banking-a").verify(makeRequest(body, { "banking-a-signature": hex }), ["k"], NOW)
      yield* byName("kyc-b").verify(makeRequest(body, { "kyc-b-hmac-signature": hex }), ["k"], NOW)
      yield* byName("kyc-d").verify(makeRequest(body, { "kyc-d-signature": hex }), ["k"], NOW)
      yield* byName("banking-c").verify(
        makeRequest(body, { "x-banking-c-signature": hmacOf("sha1", "k", body, "base64") }),
        ["k"],
        NOW
      )
      const timestamped = `t=${NOW},v1=${hmacOf("sha256", "k", `${NOW}.${body}`)}`
      for (const name of ["payments", "payments-identity", "payments-issuing"]) {
        yield* byName(name).verify(makeRequest(body, { "payments-signature": timestamped }), ["k"], NOW)
      }
      yield* byName("bank-aggregator-b").verify(
        makeRequest(body, { "bank-aggregator-b-signature": timestamped }),
        ["k"],
        NOW
      )
      yield* byName("kyc-c").verify(makeRequest(body, { "kyc-c-signature": timestamped }), ["k"], NOW)
      yield* expectReason(
        byName("bank-aggregator-b").verify(
          makeRequest(body, {
            "bank-aggregator-b-signature": `t=${NOW - 200},v1=${hmacOf("sha256", "k", `${NOW - 200}.${body}`)}`
          }),
          ["k"],
          NOW
        ),
        "stale_timestamp"
      )
      yield* byName("social-premium-payments").verify(
        makeRequest(body, { "social-premium-secret-token": "k" }),
        ["k"],
        NOW
      )
      yield* byName("kyc-a").verify(
        makeRequest(body, { "kyc-a-payload-digest": hex, "kyc-a-payload-digest-alg": "HMAC_SHA256_HEX" }),
        ["k"],
        NOW
      )
      yield* byName("inbox").verify(makeRequest(body, {}, "::ffff:10.1.2.3"), ["10.0.0.0/8"], NOW)
      const raw = `v1,${hmacOf("sha256", "k", `msg_1.${NOW}.${body}`, "base64")}`
      const swHeaders = { "webhook-id": "msg_1", "webhook-timestamp": String(NOW), "webhook-signature": raw }
      yield* byName("billing-a").verify(makeRequest(body, swHeaders), ["k"], NOW)
      const whsec = `whsec_${Buffer.from("k").toString("base64")}`
      for (const name of ["banking-b", "card-issuing-a", "card-issuing-a/auth-stream"]) {
        yield* byName(name).verify(makeRequest(body, swHeaders), [whsec], NOW)
      }
    })
  )
})

import { Schema } from "effect"
import { CardAuthorizationAnswer, UNAVAILABLE_DECLINE_REASON } from "../checkout/model.ts"

/** The headers of the Standard Webhooks specification. */
export const StandardWebhooksHeaders = {
  id: "webhook-id",
  timestamp: "webhook-timestamp",
  signature: "webhook-signature"
} as const

/** The chat platform's request-signing headers. */
export const ChatSigningHeaders = { signature: "x-chat-signature", timestamp: "x-chat-request-timestamp" } as const

/** kyc-a's digest header and the header naming its algorithm. */
export const KycADigestHeaders = { digest: "kyc-a-payload-digest", algorithm: "kyc-a-payload-digest-alg" } as const

/** How a provider proves that a request is its own; header names are lower case. */
export type InboundSignature =
  | { readonly _tag: "BodyHmacSha256Hex"; readonly header: string }
  | { readonly _tag: "BodyHmacSha1Base64"; readonly header: string }
  | { readonly _tag: "StandardWebhooks"; readonly keyForm: "whsec" | "raw" }
  | { readonly _tag: "TimestampedHmac"; readonly header: string; readonly toleranceSeconds: number }
  | { readonly _tag: "SignedJwt"; readonly header: string }
  | { readonly _tag: "SharedToken"; readonly header: string }
  | { readonly _tag: "KycADigest" }
  | { readonly _tag: "ChatSigning" }
  | { readonly _tag: "SourceIp" }

/** One request header a signature scheme reads, and what it carries. */
export interface SignatureHeader {
  readonly name: string
  readonly description: string
}

/** The headers a request signed under `signature` carries (none for a source-IP check). */
export const signatureHeaders = (signature: InboundSignature): ReadonlyArray<SignatureHeader> => {
  switch (signature._tag) {
    case "BodyHmacSha256Hex":
      return [{ name: signature.header, description: "Hex HMAC-SHA256 of the raw body." }]
    case "BodyHmacSha1Base64":
      return [{ name: signature.header, description: "Base64 HMAC-SHA1 of the raw body." }]
    case "StandardWebhooks":
      return [
        { name: StandardWebhooksHeaders.id, description: "The event id (the deduplication key)." },
        { name: StandardWebhooksHeaders.timestamp, description: "Unix seconds, at most 300 s from now." },
        {
          name: StandardWebhooksHeaders.signature,
          description: "`v1,<base64 HMAC-SHA256 of id.timestamp.body>`, several space-separated during rotation."
        }
      ]
    case "TimestampedHmac":
      return [
        {
          name: signature.header,
          description: `\`t=<unix>,v1=<hex HMAC-SHA256 of t.body>\`, \`t\` at most ${signature.toleranceSeconds} s from now.`
        }
      ]
    case "SignedJwt":
      return [
        {
          name: signature.header,
          description:
            "ES256 JWT from a key of the configured JWKS; claim `request_body_sha256` is the body's hex SHA-256."
        }
      ]
    case "SharedToken":
      return [{ name: signature.header, description: "Equals the configured secret." }]
    case "KycADigest":
      return [
        { name: KycADigestHeaders.digest, description: "Hex HMAC of the raw body." },
        {
          name: KycADigestHeaders.algorithm,
          description: "`HMAC_SHA1_HEX`, `HMAC_SHA256_HEX` or `HMAC_SHA512_HEX`."
        }
      ]
    case "ChatSigning":
      return [
        {
          name: ChatSigningHeaders.signature,
          description: "`v0=<hex HMAC-SHA256 of v0:timestamp:body>`."
        },
        { name: ChatSigningHeaders.timestamp, description: "Unix seconds, at most 300 s from now." }
      ]
    case "SourceIp":
      return []
  }
}

/** Where the provider's event id (the dedup key) comes from: a header, the envelope `id`, or the endpoint's own body. */
export type EventIdSource = "webhook-id-header" | "envelope-id" | "payload"

/** The 200 body of an endpoint, as a schema and as the value it sends. */
export interface InboundAcknowledgement {
  readonly schema: Schema.Top
  readonly body: object
}

const acknowledgement = <S extends Schema.Top>(schema: S, body: S["Type"] & object): InboundAcknowledgement => ({
  schema,
  body
})

const received = acknowledgement(Schema.Struct({ received: Schema.Boolean }), { received: true })
const success = acknowledgement(Schema.Struct({ success: Schema.Boolean }), { success: true })

/** One inbound endpoint: where it listens, how its requests are signed and configured, and what it answers. */
export interface InboundWebhook {
  readonly name: string
  readonly path: `/${string}`
  readonly summary: string
  readonly signature: InboundSignature
  readonly secretEnv: string
  readonly secretNotConfiguredStatus: 400 | 503
  readonly invalidSignatureStatus: 400 | 401 | 403
  readonly eventIdSource: EventIdSource
  /** Whether the event is processed before the answer, which is then 500 when processing fails. */
  readonly processedBeforeAnswer: boolean
  readonly acknowledgement: InboundAcknowledgement
}

/** The env var holding an endpoint's secret: `WEBHOOK_SECRET_<NAME>`, upper case, `-` and `/` as `_`. */
export const secretEnvName = (name: string): string => `WEBHOOK_SECRET_${name.toUpperCase().replace(/[-/]/g, "_")}`

const webhook = (
  name: string,
  summary: string,
  signature: InboundSignature,
  overrides: Partial<InboundWebhook> = {}
): InboundWebhook => ({
  name,
  path: `/webhook/${name}`,
  summary,
  signature,
  secretEnv: secretEnvName(name),
  secretNotConfiguredStatus: 400,
  invalidSignatureStatus: 400,
  eventIdSource: "envelope-id",
  processedBeforeAnswer: false,
  acknowledgement: received,
  ...overrides
})

const standardWhsec: InboundSignature = { _tag: "StandardWebhooks", keyForm: "whsec" }
const timestamped = (header: string, toleranceSeconds = 300): InboundSignature => ({
  _tag: "TimestampedHmac",
  header,
  toleranceSeconds
})
const hexHmac = (header: string): InboundSignature => ({ _tag: "BodyHmacSha256Hex", header })

/** The 17 provider webhook endpoints under `/webhook/`. */
export const InboundWebhooks: ReadonlyArray<InboundWebhook> = [
  webhook("banking-a", "Receive banking-a platform events", hexHmac("banking-a-signature"), {
    secretNotConfiguredStatus: 503
  }),
  webhook("banking-b", "Receive banking-b event notifications", standardWhsec, {
    secretNotConfiguredStatus: 503,
    eventIdSource: "webhook-id-header"
  }),
  webhook(
    "banking-c",
    "Receive banking-c platform events",
    { _tag: "BodyHmacSha1Base64", header: "x-banking-c-signature" },
    { secretNotConfiguredStatus: 503 }
  ),
  webhook(
    "inbox",
    "Receive an inbound e-mail",
    { _tag: "SourceIp" },
    { secretEnv: "INBOX_ALLOWED_IPS", invalidSignatureStatus: 403, eventIdSource: "payload", acknowledgement: success }
  ),
  webhook("card-issuing-a", "Receive card-issuing events", standardWhsec, { eventIdSource: "webhook-id-header" }),
  webhook("card-issuing-a/auth-stream", "Decide a card authorization in real time", standardWhsec, {
    // The issuer signs its authorizations with the card-issuing-a secret; the answer is the decision, not stored.
    secretEnv: secretEnvName("card-issuing-a"),
    eventIdSource: "webhook-id-header",
    acknowledgement: acknowledgement(CardAuthorizationAnswer, {
      approve_response: "DECLINED",
      decline_reason: UNAVAILABLE_DECLINE_REASON
    })
  }),
  webhook(
    "bank-aggregator-a",
    "Receive bank-aggregator-a transaction and item updates",
    { _tag: "SignedJwt", header: "bank-aggregator-a-verification" },
    { secretEnv: "BANK_AGGREGATOR_A_JWKS", invalidSignatureStatus: 401, acknowledgement: success }
  ),
  webhook(
    "bank-aggregator-b",
    "Receive bank-aggregator-b enrollment and transaction updates",
    timestamped("bank-aggregator-b-signature", 180),
    { invalidSignatureStatus: 401, acknowledgement: success }
  ),
  webhook(
    "billing-a",
    "Receive billing subscription changes",
    { _tag: "StandardWebhooks", keyForm: "raw" },
    { eventIdSource: "webhook-id-header", processedBeforeAnswer: true }
  ),
  webhook("payments", "Receive invoice-payment events", timestamped("payments-signature")),
  webhook("payments-identity", "Receive identity-verification events", timestamped("payments-signature")),
  webhook("payments-issuing", "Receive issuing events", timestamped("payments-signature")),
  webhook(
    "social-premium-payments",
    "Receive premium-subscription payment events",
    { _tag: "SharedToken", header: "social-premium-secret-token" },
    {
      acknowledgement: acknowledgement(Schema.Struct({ received: Schema.Boolean, handled: Schema.Boolean }), {
        received: true,
        handled: false
      })
    }
  ),
  webhook("kyc-a", "Receive kyc-a applicant reviews", { _tag: "KycADigest" }),
  webhook("kyc-b", "Receive kyc-b decisions", hexHmac("kyc-b-hmac-signature")),
  webhook("kyc-c", "Receive kyc-c inquiry events", timestamped("kyc-c-signature")),
  webhook("kyc-d", "Receive kyc-d completed checks", hexHmac("kyc-d-signature"))
]

/** The chat platform's signed interaction callback. */
export const ChatInteractionsWebhook: InboundWebhook = {
  ...webhook("chat-interactions", "Receive chat interactive-component actions", { _tag: "ChatSigning" }),
  path: "/apps/chat/interactions",
  secretEnv: "CHAT_SIGNING_SECRET",
  eventIdSource: "payload",
  acknowledgement: acknowledgement(Schema.Struct({ ok: Schema.Boolean }), { ok: true })
}

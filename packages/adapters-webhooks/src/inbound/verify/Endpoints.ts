import { bodyHmacSha1Base64 } from "./BodyHmacBase64.ts"
import { bodyHmacHex } from "./BodyHmacHex.ts"
import { chatSigning } from "./ChatSigning.ts"
import { ipAllowList } from "./IpAllowList.ts"
import { kycADigest } from "./KycADigest.ts"
import { parseSecretList, parseSingleSecret } from "./Secrets.ts"
import { sharedToken } from "./SharedToken.ts"
import { signedJwt } from "./SignedJwt.ts"
import { standardWebhooks } from "./StandardWebhooks.ts"
import { timestampedHmac } from "./TimestampedHmac.ts"
import type { Verifier } from "./Verifier.ts"
import type { WebhookSignatureError } from "./WebhookSignatureError.ts"

/** Where the provider's event id (the dedup key) comes from: a header, the envelope `id`, or the endpoint's own body. */
export type EventIdSource = "webhook-id-header" | "envelope-id" | "payload"

/** One inbound endpoint: where it listens, how its secret is configured and checked, and what to answer on failure. */
export interface InboundEndpoint {
  readonly name: string
  readonly path: string
  readonly secretEnv: string
  readonly parseSecrets: (raw: string | undefined) => ReadonlyArray<string>
  readonly verify: Verifier
  readonly secretNotConfiguredStatus: 400 | 503
  readonly invalidSignatureStatus: 400 | 401 | 403
  readonly eventIdSource: EventIdSource
}

/** The env var holding an endpoint's secret: `WEBHOOK_SECRET_<NAME>`, upper case, `-` and `/` as `_`. */
export const secretEnvName = (name: string): string => `WEBHOOK_SECRET_${name.toUpperCase().replace(/[-/]/g, "_")}`

const webhook = (name: string, verify: Verifier, overrides: Partial<InboundEndpoint> = {}): InboundEndpoint => ({
  name,
  path: `/webhook/${name}`,
  secretEnv: secretEnvName(name),
  parseSecrets: parseSecretList,
  verify,
  secretNotConfiguredStatus: 400,
  invalidSignatureStatus: 400,
  eventIdSource: "envelope-id",
  ...overrides
})

const standardWhsec = standardWebhooks("whsec")
const paymentsSignature = timestampedHmac("payments-signature")

/** The 17 provider webhook endpoints under `/webhook/`. */
export const InboundEndpoints: ReadonlyArray<InboundEndpoint> = [
  webhook("banking-a", bodyHmacHex("banking-a-signature"), { secretNotConfiguredStatus: 503 }),
  webhook("banking-b", standardWhsec, { secretNotConfiguredStatus: 503, eventIdSource: "webhook-id-header" }),
  webhook("banking-c", bodyHmacSha1Base64("x-banking-c-signature"), { secretNotConfiguredStatus: 503 }),
  webhook("inbox", ipAllowList, {
    secretEnv: "INBOX_ALLOWED_IPS",
    invalidSignatureStatus: 403,
    eventIdSource: "payload"
  }),
  webhook("card-issuing-a", standardWhsec, { eventIdSource: "webhook-id-header" }),
  webhook("card-issuing-a/auth-stream", standardWhsec, { eventIdSource: "webhook-id-header" }),
  webhook("bank-aggregator-a", signedJwt("bank-aggregator-a-verification"), {
    secretEnv: "BANK_AGGREGATOR_A_JWKS",
    parseSecrets: parseSingleSecret,
    invalidSignatureStatus: 401
  }),
  webhook("bank-aggregator-b", timestampedHmac("bank-aggregator-b-signature", 180), { invalidSignatureStatus: 401 }),
  webhook("billing-a", standardWebhooks("raw"), { eventIdSource: "webhook-id-header" }),
  webhook("payments", paymentsSignature),
  webhook("payments-identity", paymentsSignature),
  webhook("payments-issuing", paymentsSignature),
  webhook("social-premium-payments", sharedToken("social-premium-secret-token")),
  webhook("kyc-a", kycADigest),
  webhook("kyc-b", bodyHmacHex("kyc-b-hmac-signature")),
  webhook("kyc-c", timestampedHmac("kyc-c-signature")),
  webhook("kyc-d", bodyHmacHex("kyc-d-signature"))
]

/** The chat platform's signed interaction callback. */
export const ChatInteractions: InboundEndpoint = {
  name: "chat-interactions",
  path: "/apps/chat/interactions",
  secretEnv: "CHAT_SIGNING_SECRET",
  parseSecrets: parseSecretList,
  verify: chatSigning(),
  secretNotConfiguredStatus: 400,
  invalidSignatureStatus: 400,
  eventIdSource: "payload"
}

/** Finds the endpoint (webhook or chat) listening on `path`. */
export const findEndpointByPath = (path: string): InboundEndpoint | undefined =>
  path === ChatInteractions.path ? ChatInteractions : InboundEndpoints.find((endpoint) => endpoint.path === path)

/** Reads an endpoint's configured secrets from an environment record. */
export const secretsFromEnv = (
  endpoint: InboundEndpoint,
  env: Readonly<Record<string, string | undefined>>
): ReadonlyArray<string> => endpoint.parseSecrets(env[endpoint.secretEnv])

/** The HTTP status an endpoint answers for a verification failure. */
export const statusForSignatureError = (
  endpoint: InboundEndpoint,
  error: WebhookSignatureError
): 400 | 401 | 403 | 503 =>
  error.reason === "secret_not_configured"
    ? endpoint.secretNotConfiguredStatus
    : error.reason === "forbidden_ip"
      ? 403
      : endpoint.invalidSignatureStatus

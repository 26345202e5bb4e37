import { ChatInteractionsWebhook, type InboundSignature, type InboundWebhook, InboundWebhooks } from "@svc/domain"
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

/** One inbound endpoint of the domain's table, with how its secrets are parsed and its requests verified. */
export interface InboundEndpoint extends InboundWebhook {
  readonly parseSecrets: (raw: string | undefined) => ReadonlyArray<string>
  readonly verify: Verifier
}

const verifierOf = (signature: InboundSignature): Verifier => {
  switch (signature._tag) {
    case "BodyHmacSha256Hex":
      return bodyHmacHex(signature.header)
    case "BodyHmacSha1Base64":
      return bodyHmacSha1Base64(signature.header)
    case "StandardWebhooks":
      return standardWebhooks(signature.keyForm)
    case "TimestampedHmac":
      return timestampedHmac(signature.header, signature.toleranceSeconds)
    case "SignedJwt":
      return signedJwt(signature.header)
    case "SharedToken":
      return sharedToken(signature.header)
    case "KycADigest":
      return kycADigest
    case "ChatSigning":
      return chatSigning()
    case "SourceIp":
      return ipAllowList
  }
}

const endpointOf = (webhook: InboundWebhook): InboundEndpoint => ({
  ...webhook,
  parseSecrets: webhook.signature._tag === "SignedJwt" ? parseSingleSecret : parseSecretList,
  verify: verifierOf(webhook.signature)
})

/** The 17 provider webhook endpoints under `/webhook/`. */
export const InboundEndpoints: ReadonlyArray<InboundEndpoint> = InboundWebhooks.map(endpointOf)

/** The chat platform's signed interaction callback. */
export const ChatInteractions: InboundEndpoint = endpointOf(ChatInteractionsWebhook)

/** Finds the endpoint (webhook or chat) listening on `path`. */
export const findEndpointByPath = (path: string): InboundEndpoint | undefined =>
  path === ChatInteractions.path ? ChatInteractions : InboundEndpoints.find((endpoint) => endpoint.path === path)

/** An endpoint's configured secrets, from a record of the variables that name them (`WebhooksSettings.inboundSecrets`). */
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

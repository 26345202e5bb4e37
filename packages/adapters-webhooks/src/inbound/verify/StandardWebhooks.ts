import { StandardWebhooksHeaders } from "@svc/domain"
import { Effect } from "effect"
import {
  anyEqual,
  BASE64,
  headerOf,
  hmac,
  parseUnixSeconds,
  reject,
  requiringSecrets,
  withinWindow
} from "./internal/crypto.ts"
import type { Verifier } from "./Verifier.ts"

/** How a Standard Webhooks secret becomes the HMAC key: `whsec_<base64>` or the secret's UTF-8 bytes. */
export type StandardWebhooksKeyForm = "whsec" | "raw"

const WHSEC_PREFIX = "whsec_"

/** Decodes one configured secret into its HMAC key, or `undefined` when it is not a usable key. */
export const standardWebhooksKey = (secret: string, keyForm: StandardWebhooksKeyForm): Uint8Array | undefined => {
  if (keyForm === "raw") return new TextEncoder().encode(secret)
  const encoded = secret.startsWith(WHSEC_PREFIX) ? secret.slice(WHSEC_PREFIX.length) : secret
  if (!BASE64.test(encoded)) return undefined
  const key = Buffer.from(encoded, "base64")
  return key.length === 0 ? undefined : key
}

/** Verifies Standard Webhooks headers (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<b64> ...`). */
export const standardWebhooks = (keyForm: StandardWebhooksKeyForm, toleranceSeconds = 300): Verifier =>
  requiringSecrets((request, secrets, nowSeconds) => {
    const signature = headerOf(request, StandardWebhooksHeaders.signature)
    if (signature === undefined) return reject("missing_signature")
    const id = headerOf(request, StandardWebhooksHeaders.id)
    const timestampHeader = headerOf(request, StandardWebhooksHeaders.timestamp)
    const timestamp = timestampHeader === undefined ? undefined : parseUnixSeconds(timestampHeader)
    const provided = signature
      .split(/\s+/)
      .filter((entry) => entry.startsWith("v1,"))
      .map((entry) => entry.slice(3))
    if (id === undefined || timestampHeader === undefined || timestamp === undefined || provided.length === 0) {
      return reject("malformed_header")
    }
    if (!withinWindow(timestamp, nowSeconds, toleranceSeconds)) return reject("stale_timestamp")
    const expected = secrets.flatMap((secret) => {
      const key = standardWebhooksKey(secret, keyForm)
      return key === undefined ? [] : [hmac("sha256", key, `${id}.${timestamp}.`, request.body).toString("base64")]
    })
    return anyEqual(expected, provided) ? Effect.void : reject("invalid_signature")
  })

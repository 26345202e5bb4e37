import { ChatSigningHeaders } from "@svc/domain"
import { Effect } from "effect"
import {
  anyEqual,
  HEX,
  headerOf,
  hmac,
  parseUnixSeconds,
  reject,
  requiringSecrets,
  withinWindow
} from "./internal/crypto.ts"
import type { Verifier } from "./Verifier.ts"

/** Verifies `x-chat-signature: v0=<hex>` = HMAC-SHA256 of `v0:<x-chat-request-timestamp>:<body>`. */
export const chatSigning = (toleranceSeconds = 300): Verifier =>
  requiringSecrets((request, secrets, nowSeconds) => {
    const signature = headerOf(request, ChatSigningHeaders.signature)
    if (signature === undefined) return reject("missing_signature")
    const timestampHeader = headerOf(request, ChatSigningHeaders.timestamp)
    const timestamp = timestampHeader === undefined ? undefined : parseUnixSeconds(timestampHeader)
    const provided = signature.startsWith("v0=") ? signature.slice(3) : ""
    if (timestamp === undefined || !HEX.test(provided)) return reject("malformed_header")
    if (!withinWindow(timestamp, nowSeconds, toleranceSeconds)) return reject("stale_timestamp")
    const expected = secrets.map((secret) =>
      hmac("sha256", secret, `v0:${timestampHeader}:`, request.body).toString("hex")
    )
    return anyEqual(expected, [provided.toLowerCase()]) ? Effect.void : reject("invalid_signature")
  })

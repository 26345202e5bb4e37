import { Effect } from "effect"
import { anyEqual, BASE64, headerOf, hmac, reject, requiringSecrets } from "./internal/crypto.ts"
import type { Verifier } from "./Verifier.ts"

/** Verifies `header` = base64 HMAC-SHA1 of the raw body under any configured secret. */
export const bodyHmacSha1Base64 = (header: string): Verifier =>
  requiringSecrets((request, secrets) => {
    const provided = headerOf(request, header)
    if (provided === undefined) return reject("missing_signature")
    if (!BASE64.test(provided)) return reject("malformed_header")
    const expected = secrets.map((secret) => hmac("sha1", secret, request.body).toString("base64"))
    return anyEqual(expected, [provided]) ? Effect.void : reject("invalid_signature")
  })

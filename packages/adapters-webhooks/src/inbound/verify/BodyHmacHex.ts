import { Effect } from "effect"
import { anyEqual, HEX, headerOf, hmac, reject, requiringSecrets } from "./internal/crypto.ts"
import type { Verifier } from "./Verifier.ts"

/** Verifies `header` = hex HMAC-SHA256 of the raw body under any configured secret. */
export const bodyHmacHex = (header: string): Verifier =>
  requiringSecrets((request, secrets) => {
    const provided = headerOf(request, header)
    if (provided === undefined) return reject("missing_signature")
    if (!HEX.test(provided)) return reject("malformed_header")
    const expected = secrets.map((secret) => hmac("sha256", secret, request.body).toString("hex"))
    return anyEqual(expected, [provided.toLowerCase()]) ? Effect.void : reject("invalid_signature")
  })

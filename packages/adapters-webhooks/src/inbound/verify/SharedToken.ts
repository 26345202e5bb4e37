import { Effect } from "effect"
import { anyEqual, headerOf, reject, requiringSecrets } from "./internal/crypto.ts"
import type { Verifier } from "./Verifier.ts"

/** Verifies that `header` equals one of the configured secrets. */
export const sharedToken = (header: string): Verifier =>
  requiringSecrets((request, secrets) => {
    const provided = headerOf(request, header)
    if (provided === undefined) return reject("missing_signature")
    return anyEqual(secrets, [provided]) ? Effect.void : reject("invalid_signature")
  })

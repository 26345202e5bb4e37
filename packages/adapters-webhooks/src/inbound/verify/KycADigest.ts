import { KycADigestHeaders } from "@svc/domain"
import { Effect } from "effect"
import { anyEqual, HEX, type HmacAlgorithm, headerOf, hmac, reject, requiringSecrets } from "./internal/crypto.ts"
import type { Verifier } from "./Verifier.ts"

const ALGORITHMS: Readonly<Record<string, HmacAlgorithm>> = {
  HMAC_SHA1_HEX: "sha1",
  HMAC_SHA256_HEX: "sha256",
  HMAC_SHA512_HEX: "sha512"
}

/** Verifies `kyc-a-payload-digest` = hex HMAC of the body with the algorithm named in `kyc-a-payload-digest-alg`. */
export const kycADigest: Verifier = requiringSecrets((request, secrets) => {
  const digest = headerOf(request, KycADigestHeaders.digest)
  if (digest === undefined) return reject("missing_signature")
  const algName = headerOf(request, KycADigestHeaders.algorithm)
  const algorithm = algName === undefined || !Object.hasOwn(ALGORITHMS, algName) ? undefined : ALGORITHMS[algName]
  if (algorithm === undefined || !HEX.test(digest)) return reject("malformed_header")
  const expected = secrets.map((secret) => hmac(algorithm, secret, request.body).toString("hex"))
  return anyEqual(expected, [digest.toLowerCase()]) ? Effect.void : reject("invalid_signature")
})

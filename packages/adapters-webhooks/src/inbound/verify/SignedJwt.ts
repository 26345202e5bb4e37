import { Effect } from "effect"
import { createLocalJWKSet, decodeProtectedHeader, type JSONWebKeySet, type JWK, jwtVerify } from "jose"
import { headerOf, reject, requiringSecrets, safeEqual, sha256, withinWindow } from "./internal/crypto.ts"
import type { Verifier } from "./Verifier.ts"

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** Collects the keys of every configured JWKS JSON document; documents that do not parse are skipped. */
export const parseJwks = (documents: ReadonlyArray<string>): JSONWebKeySet => {
  const keys: Array<JWK> = []
  for (const document of documents) {
    try {
      const parsed: unknown = JSON.parse(document)
      if (isRecord(parsed) && Array.isArray(parsed.keys)) {
        for (const key of parsed.keys) if (isRecord(key) && typeof key.kty === "string") keys.push(key as JWK)
      }
    } catch {}
  }
  return { keys }
}

/** Verifies an ES256 JWT in `header`: `kid` from the JWKS, `request_body_sha256` = hex SHA-256 of the body, fresh `iat`. */
export const signedJwt = (header: string, maxAgeSeconds = 300): Verifier =>
  requiringSecrets((request, secrets, nowSeconds) =>
    Effect.gen(function* () {
      const jwks = parseJwks(secrets)
      if (jwks.keys.length === 0) return yield* reject("secret_not_configured")
      const token = headerOf(request, header)
      if (token === undefined) return yield* reject("missing_signature")
      const protectedHeader = yield* Effect.try({
        try: () => decodeProtectedHeader(token),
        catch: () => undefined
      }).pipe(Effect.catch(() => reject("malformed_header")))
      if (typeof protectedHeader.kid !== "string" || token.split(".").length !== 3) {
        return yield* reject("malformed_header")
      }
      if (protectedHeader.alg !== "ES256") return yield* reject("invalid_signature")
      const { payload } = yield* Effect.tryPromise({
        try: () =>
          jwtVerify(token, createLocalJWKSet(jwks), {
            algorithms: ["ES256"],
            currentDate: new Date(nowSeconds * 1000)
          }),
        catch: (error) => (isRecord(error) && error.code === "ERR_JWT_EXPIRED" ? "stale" : "invalid")
      }).pipe(Effect.catch((failure) => reject(failure === "stale" ? "stale_timestamp" : "invalid_signature")))
      if (typeof payload.iat !== "number" || typeof payload.request_body_sha256 !== "string") {
        return yield* reject("malformed_header")
      }
      if (!withinWindow(payload.iat, nowSeconds, maxAgeSeconds)) return yield* reject("stale_timestamp")
      const bodyHash = sha256(request.body).toString("hex")
      if (!safeEqual(bodyHash, payload.request_body_sha256.toLowerCase())) return yield* reject("invalid_signature")
    })
  )

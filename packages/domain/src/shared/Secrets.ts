import { Context, Effect } from "effect"
import { toBase64Url, toHex, utf8 } from "./internal/Encoding.ts"
import { randomBytes } from "./Random.ts"

/**
 * SHA-256 of bytes. The default is WebCrypto, which runs anywhere but answers through a promise and a worker-thread
 * hop; a composition root on Node provides a synchronous native digest, which costs a fraction per call. Every
 * secret lookup, request fingerprint and PKCE check goes through it.
 */
export const Sha256 = Context.Reference<(data: Uint8Array) => Effect.Effect<Uint8Array>>("@svc/domain/Sha256", {
  defaultValue: () => (data) =>
    Effect.promise(() => crypto.subtle.digest("SHA-256", new Uint8Array(data))).pipe(
      Effect.map((digest) => new Uint8Array(digest))
    )
})

/** The SHA-256 digest of bytes, by the `Sha256` in context. */
export const sha256 = (data: Uint8Array): Effect.Effect<Uint8Array> =>
  Effect.gen(function* () {
    const digest = yield* Sha256
    return yield* digest(data)
  })

/** A new high-entropy secret: the prefix followed by 32 random bytes in base64url. */
export const generateSecret = (prefix: string): Effect.Effect<string> =>
  Effect.map(randomBytes(32), (bytes) => `${prefix}${toBase64Url(bytes)}`)

/** The SHA-256 hex digest under which a secret is stored; the raw value is never kept. */
export const hashSecret = (raw: string): Effect.Effect<string> => Effect.map(sha256(utf8(raw)), toHex)

const hmacSha256 = (key: string, message: string): Effect.Effect<Uint8Array> =>
  Effect.promise(async () => {
    const cryptoKey = await crypto.subtle.importKey("raw", utf8(key), { name: "HMAC", hash: "SHA-256" }, false, [
      "sign"
    ])
    return new Uint8Array(await crypto.subtle.sign("HMAC", cryptoKey, utf8(message)))
  })

/** HMAC-SHA256 of a message under a key, as base64url: deterministic, unforgeable without the key. */
export const hmacBase64Url = (key: string, message: string): Effect.Effect<string> =>
  Effect.map(hmacSha256(key, message), toBase64Url)

/** HMAC-SHA256 of a message under a key, as lowercase hex. */
export const hmacHex = (key: string, message: string): Effect.Effect<string> =>
  Effect.map(hmacSha256(key, message), toHex)

/** Compares two strings in time that depends only on their lengths, never on where they differ. */
export const constantTimeEqual = (a: string, b: string): boolean => {
  const left = utf8(a)
  const right = utf8(b)
  let diff = left.length ^ right.length
  const length = Math.max(left.length, right.length)
  for (let i = 0; i < length; i++) {
    diff |= (left[i] ?? 0) ^ (right[i] ?? 0)
  }
  return diff === 0
}

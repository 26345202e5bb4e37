import { Effect } from "effect"
import { toBase64Url, toHex, utf8 } from "./internal/Encoding.ts"

/** A new high-entropy secret: the prefix followed by 32 random bytes in base64url. */
export const generateSecret = (prefix: string): string =>
  `${prefix}${toBase64Url(crypto.getRandomValues(new Uint8Array(32)))}`

/** The SHA-256 hex digest under which a secret is stored; the raw value is never kept. */
export const hashSecret = (raw: string): Effect.Effect<string> =>
  Effect.promise(() => crypto.subtle.digest("SHA-256", utf8(raw))).pipe(Effect.map((d) => toHex(new Uint8Array(d))))

/** HMAC-SHA256 of a message under a key, as base64url: deterministic, unforgeable without the key. */
export const hmacBase64Url = (key: string, message: string): Effect.Effect<string> =>
  Effect.promise(async () => {
    const cryptoKey = await crypto.subtle.importKey("raw", utf8(key), { name: "HMAC", hash: "SHA-256" }, false, [
      "sign"
    ])
    return toBase64Url(new Uint8Array(await crypto.subtle.sign("HMAC", cryptoKey, utf8(message))))
  })

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

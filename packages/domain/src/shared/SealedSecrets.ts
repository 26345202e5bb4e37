import { Context, Effect, Layer, Redacted, Schema } from "effect"
import { bytesFromBase64Url, toBase64Url, utf8 } from "./internal/Encoding.ts"
import { randomBytes } from "./Random.ts"

/** A sealed value could not be opened: it was altered, truncated, or sealed under another key. */
export class SealedSecretInvalid extends Schema.TaggedError<SealedSecretInvalid>()("SealedSecretInvalid", {}) {}

const VERSION = "v1"
const IV_BYTES = 12

/**
 * Encryption at rest of the secrets the service must use again (an integration's bot or refresh token), unlike the
 * credentials it only verifies, which are hashed. AES-256-GCM under a key derived (HKDF-SHA-256) from the configured
 * secret, a fresh random 96-bit IV per value; sealed text is `v1.<iv>.<ciphertext and tag>` in base64url, and any
 * change to it makes `open` fail.
 */
export class SealedSecrets extends Context.Service<
  SealedSecrets,
  {
    readonly seal: (plaintext: string) => Effect.Effect<string>
    readonly open: (sealed: string) => Effect.Effect<string, SealedSecretInvalid>
  }
>()("@svc/domain/SealedSecrets") {
  /** Seals under a key derived from `secret` (at least 32 characters of high entropy). */
  static readonly make = (secret: Redacted.Redacted<string>) =>
    Effect.gen(function* () {
      const key = yield* Effect.promise(async () => {
        const material = await crypto.subtle.importKey("raw", utf8(Redacted.value(secret)), "HKDF", false, [
          "deriveKey"
        ])
        return crypto.subtle.deriveKey(
          { name: "HKDF", hash: "SHA-256", salt: utf8("svc sealed secrets"), info: utf8(VERSION) },
          material,
          { name: "AES-GCM", length: 256 },
          false,
          ["encrypt", "decrypt"]
        )
      })
      return SealedSecrets.of({
        seal: (plaintext) =>
          Effect.gen(function* () {
            const iv = yield* randomBytes(IV_BYTES)
            const sealed = yield* Effect.promise(() =>
              crypto.subtle.encrypt({ name: "AES-GCM", iv: new Uint8Array(iv) }, key, utf8(plaintext))
            )
            return `${VERSION}.${toBase64Url(iv)}.${toBase64Url(new Uint8Array(sealed))}`
          }),
        open: (sealed) => {
          const [version, iv, body, ...rest] = sealed.split(".")
          const ivBytes = iv === undefined ? undefined : bytesFromBase64Url(iv)
          const bodyBytes = body === undefined ? undefined : bytesFromBase64Url(body)
          if (version !== VERSION || rest.length > 0 || ivBytes?.length !== IV_BYTES || bodyBytes === undefined) {
            return Effect.fail(new SealedSecretInvalid())
          }
          return Effect.tryPromise({
            try: () => crypto.subtle.decrypt({ name: "AES-GCM", iv: ivBytes }, key, bodyBytes),
            catch: () => new SealedSecretInvalid()
          }).pipe(Effect.map((plain) => new TextDecoder().decode(plain)))
        }
      })
    })

  static readonly layer = (secret: Redacted.Redacted<string>) => Layer.effect(SealedSecrets, SealedSecrets.make(secret))
}

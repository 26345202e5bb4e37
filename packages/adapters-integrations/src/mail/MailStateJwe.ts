import { MailCallbackInvalid, type MailState, MailStateCodec, TeamId, UserId } from "@svc/domain"
import { Effect, Layer, Redacted, Schema } from "effect"
import { EncryptJWT, errors, jwtDecrypt } from "jose"

const AUDIENCE = "svc:mail-state"

const Claims = Schema.Struct({ team: TeamId, sub: UserId, jti: Schema.String, browser: Schema.String })

const utf8 = (text: string) => new TextEncoder().encode(text)

/** The 256-bit content key of mail states: HKDF-SHA-256 of the integration secret, bound to this one use. */
const deriveKey = (secret: Redacted.Redacted<string>) =>
  Effect.promise(async () => {
    const material = await crypto.subtle.importKey("raw", utf8(Redacted.value(secret)), "HKDF", false, ["deriveBits"])
    const bits = await crypto.subtle.deriveBits(
      { name: "HKDF", hash: "SHA-256", salt: utf8("svc mail state"), info: utf8("dir+A256GCM") },
      material,
      256
    )
    return new Uint8Array(bits)
  })

const invalid = (message: string) => new MailCallbackInvalid({ field: "state", message })

/**
 * Mail connection states as compact JWEs (`dir`, `A256GCM`: encrypted and authenticated, so a person sees neither the
 * team nor the user it names, and cannot alter them) under a key derived from `INTEGRATION_SECRETS_KEY`; `exp` is the
 * state's deadline, checked against the time the caller gives, `jti` its one-time nonce and `browser` the hash of its
 * browser's secret.
 */
export const MailStateJwe = {
  make: (secret: Redacted.Redacted<string>) =>
    Effect.map(deriveKey(secret), (key) =>
      MailStateCodec.of({
        encrypt: (state: MailState, expiresAtMillis: number) =>
          Effect.promise(() =>
            new EncryptJWT({ team: state.teamId, browser: state.browserHash })
              .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
              .setSubject(state.userId)
              .setJti(state.nonce)
              .setAudience(AUDIENCE)
              .setExpirationTime(Math.floor(expiresAtMillis / 1000))
              .encrypt(key)
          ),
        decrypt: (text: string, nowMillis: number) =>
          Effect.tryPromise({
            try: () =>
              jwtDecrypt(text, key, {
                audience: AUDIENCE,
                currentDate: new Date(nowMillis),
                keyManagementAlgorithms: ["dir"],
                contentEncryptionAlgorithms: ["A256GCM"],
                requiredClaims: ["exp", "sub", "jti"]
              }),
            catch: (e) =>
              e instanceof errors.JWTExpired ? invalid("has expired") : invalid("is not a state this service issued")
          }).pipe(
            Effect.flatMap(({ payload }) =>
              Schema.decodeUnknownEffect(Claims)(payload).pipe(
                Effect.mapError(() => invalid("is not a state this service issued"))
              )
            ),
            Effect.map((claims) => ({
              teamId: claims.team,
              userId: claims.sub,
              nonce: claims.jti,
              browserHash: claims.browser
            }))
          )
      })
    ),
  layer: (secret: Redacted.Redacted<string>) => Layer.effect(MailStateCodec, MailStateJwe.make(secret))
}

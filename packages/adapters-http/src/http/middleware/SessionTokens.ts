import { type SessionIdentity, UserId } from "@svc/domain"
import { Context, Effect, Layer, Option, Redacted, Schema } from "effect"
import { jwtVerify } from "jose"

const Claims = Schema.Struct({
  sub: UserId,
  email: Schema.String.check(Schema.isMinLength(3)),
  name: Schema.optionalKey(Schema.String),
  exp: Schema.Number
})

/** A JWS compact serialisation: three base64url parts. */
export const looksLikeJwt = (token: string): boolean => /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/u.test(token)

/**
 * Verifies session JWTs (HS256 under `SESSION_JWT_SECRET`, or under `SESSION_JWT_PREVIOUS_SECRET` while a rotation is
 * under way); none for anything invalid, expired, unsigned, or valid for longer than `maxLifetimeSeconds` from now (a
 * token minted to live for months is refused, not trusted for months). Both limits are read on the wall clock, as the
 * JWT library reads `exp`.
 */
export class SessionTokens extends Context.Service<
  SessionTokens,
  { readonly verify: (token: string) => Effect.Effect<Option.Option<SessionIdentity>> }
>()("@svc/adapters-http/SessionTokens") {
  static readonly layer = (secrets: ReadonlyArray<Redacted.Redacted>, maxLifetimeSeconds: number) => {
    const keys = secrets.map((secret) => new TextEncoder().encode(Redacted.value(secret)))
    const signedPayload = (token: string) =>
      Effect.firstSuccessOf(
        keys.map((key) =>
          Effect.tryPromise(() => jwtVerify(token, key, { algorithms: ["HS256"], requiredClaims: ["sub", "exp"] }))
        )
      )
    return Layer.succeed(
      SessionTokens,
      SessionTokens.of({
        verify: (token) =>
          signedPayload(token).pipe(
            Effect.flatMap(({ payload }) => Schema.decodeUnknownEffect(Claims)(payload)),
            Effect.filterOrFail(
              (claims) => claims.exp - Date.now() / 1000 <= maxLifetimeSeconds,
              () => "the token lives longer than a session may"
            ),
            Effect.map((claims) => Option.some({ id: claims.sub, email: claims.email, fullName: claims.name ?? null })),
            Effect.orElseSucceed(() => Option.none())
          )
      })
    )
  }
}

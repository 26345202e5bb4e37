import { Context, Effect, Layer, type Option } from "effect"
import type { PersistenceUnavailable, UserId } from "../shared/model.ts"
import type {
  AuthorizationDecision,
  AuthorizationRequest,
  AuthorizationResponse,
  Consent
} from "./AuthorizationCodes.ts"
import { makeAuthorization } from "./AuthorizationCodes.ts"
import type { ClientCredentials } from "./ClientAuthentication.ts"
import { makeRegister, type RegisterClient, type RegisteredClient } from "./ClientRegistration.ts"
import type { OAuthToken } from "./OAuthEntities.ts"
import type { OAuthError } from "./OAuthError.ts"
import { makeRevoke } from "./Revocation.ts"
import { makeTokenGrants, type TokenSet } from "./TokenGrants.ts"

/** The OAuth 2.0 authorization server: registration, consent, codes with PKCE, rotating refresh tokens, revocation. */
export class OAuth extends Context.Service<
  OAuth,
  {
    readonly register: (input: RegisterClient) => Effect.Effect<RegisteredClient, OAuthError | PersistenceUnavailable>
    readonly consent: (request: AuthorizationRequest) => Effect.Effect<Consent, OAuthError | PersistenceUnavailable>
    readonly decide: (
      userId: UserId,
      decision: AuthorizationDecision
    ) => Effect.Effect<AuthorizationResponse, OAuthError | PersistenceUnavailable>
    readonly exchangeCode: (
      client: ClientCredentials,
      input: {
        readonly code: string | undefined
        readonly redirectUri: string | undefined
        readonly codeVerifier: string | undefined
      }
    ) => Effect.Effect<TokenSet, OAuthError | PersistenceUnavailable>
    readonly refresh: (
      client: ClientCredentials,
      input: { readonly refreshToken: string | undefined; readonly scope: string | undefined }
    ) => Effect.Effect<TokenSet, OAuthError | PersistenceUnavailable>
    /** RFC 7009: revokes an access token, or a refresh token with its whole grant; unknown tokens succeed. */
    readonly revoke: (
      client: ClientCredentials,
      token: string
    ) => Effect.Effect<void, OAuthError | PersistenceUnavailable>
    /** The live access token behind a raw value; none when unknown, revoked or expired. */
    readonly accessToken: (raw: string) => Effect.Effect<Option.Option<OAuthToken>, PersistenceUnavailable>
  }
>()("@svc/domain/OAuth") {
  static readonly make = Effect.gen(function* () {
    const register = yield* makeRegister
    const { consent, decide } = yield* makeAuthorization
    const { exchangeCode, refresh, accessToken } = yield* makeTokenGrants
    const revoke = yield* makeRevoke
    return OAuth.of({ register, consent, decide, exchangeCode, refresh, revoke, accessToken })
  })
  static readonly layer = Layer.effect(OAuth, OAuth.make)
}

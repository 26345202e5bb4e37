import { Clock, Context, Effect, Layer, Option, Result } from "effect"
import { TeamsRepo } from "../identity/index.ts"
import type { TeamId, UserId } from "../shared/index.ts"
import {
  constantTimeEqual,
  generateSecret,
  hashSecret,
  isoOfMillis,
  newIdText,
  type PersistenceUnavailable,
  Transactor
} from "../shared/index.ts"
import { type OAuthError, oauthError, redirectableError } from "./OAuthError.ts"
import {
  type AuthorizationCode,
  type OAuthApplication,
  OAuthRepo,
  type OAuthToken,
  type TokenEndpointAuthMethod
} from "./OAuthRepo.ts"
import { isCodeVerifier, isS256Challenge, verifyS256 } from "./Pkce.ts"
import { checkRedirectUri } from "./RedirectUris.ts"
import { DECISION_SCOPES, formatScope, isSubset, OAUTH_SCOPES, parseScope } from "./Scopes.ts"

/** Lifetimes (seconds) of codes and tokens. */
export const CODE_TTL_SECONDS = 5 * 60
export const ACCESS_TOKEN_TTL_SECONDS = 2 * 60 * 60
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60

/** Raw value prefixes of OAuth credentials. */
export const CLIENT_ID_PREFIX = "mid_client_"
export const CLIENT_SECRET_PREFIX = "mid_client_secret_"
export const CODE_PREFIX = "mid_code_"
export const ACCESS_TOKEN_PREFIX = "mid_access_token_"
export const REFRESH_TOKEN_PREFIX = "mid_refresh_token_"

const GRANT_TYPES = ["authorization_code", "refresh_token"]
const AUTH_METHODS: ReadonlyArray<TokenEndpointAuthMethod> = ["none", "client_secret_post", "client_secret_basic"]

/** RFC 7591 client metadata, as sent (unknown metadata is ignored before it gets here). */
export interface RegisterClient {
  readonly clientName: string
  readonly redirectUris: ReadonlyArray<string>
  readonly grantTypes?: ReadonlyArray<string> | undefined
  readonly tokenEndpointAuthMethod?: string | undefined
  readonly scope?: string | undefined
  readonly logoUri?: string | undefined
  readonly clientUri?: string | undefined
  readonly responseTypes?: ReadonlyArray<string> | undefined
}

/** A registered client and, for confidential clients, its secret (shown once). */
export interface RegisteredClient {
  readonly application: OAuthApplication
  readonly clientSecret: string | null
}

/** The query of GET /oauth/authorize. */
export interface AuthorizationRequest {
  readonly responseType: string
  readonly clientId: string
  readonly redirectUri: string
  readonly scope: string
  readonly state: string
  readonly codeChallenge?: string | undefined
  readonly codeChallengeMethod?: string | undefined
}

/** What the consent screen shows: the application's public fields and what is asked for. */
export interface Consent {
  readonly application: OAuthApplication
  readonly scopes: ReadonlyArray<string>
  readonly redirectUri: string
  readonly state: string
}

/** The signed-in user's decision (POST /oauth/authorize). */
export interface AuthorizationDecision {
  readonly clientId: string
  readonly decision: "allow" | "deny"
  readonly scopes: ReadonlyArray<string>
  readonly redirectUri: string
  readonly state?: string | undefined
  readonly codeChallenge?: string | undefined
  readonly teamId: TeamId
}

/** Where the user agent goes back to, and the parameters to add to that URI. */
export interface AuthorizationResponse {
  readonly redirectUri: string
  readonly params: Readonly<Record<string, string>>
}

/** Client credentials presented at the token or revocation endpoint. */
export interface ClientCredentials {
  readonly clientId: string | undefined
  readonly clientSecret: string | undefined
}

/** The token endpoint's success (RFC 6749 5.1). */
export interface TokenSet {
  readonly accessToken: string
  readonly refreshToken: string
  readonly expiresIn: number
  readonly scope: string
}

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
    const repo = yield* OAuthRepo
    const teams = yield* TeamsRepo
    const transactor = yield* Transactor

    const nowMillis = Clock.currentTimeMillis
    const isoAt = (millis: number) => isoOfMillis(millis)

    const register = Effect.fn("OAuth.register")(function* (input: RegisterClient) {
      for (const [i, uri] of input.redirectUris.entries()) {
        const checked = checkRedirectUri(uri)
        if (Result.isFailure(checked)) {
          return yield* oauthError("invalid_redirect_uri", `redirect_uris[${i}] ${checked.failure}`)
        }
      }
      const grantTypes = input.grantTypes ?? GRANT_TYPES
      const unknownGrant = grantTypes.find((g) => !GRANT_TYPES.includes(g))
      if (unknownGrant !== undefined) {
        return yield* oauthError("invalid_client_metadata", `grant_types: unsupported grant type ${unknownGrant}`)
      }
      if (!grantTypes.includes("authorization_code")) {
        return yield* oauthError("invalid_client_metadata", "grant_types must include authorization_code")
      }
      const responseTypes = input.responseTypes ?? ["code"]
      if (responseTypes.some((r) => r !== "code")) {
        return yield* oauthError("invalid_client_metadata", "response_types: only code is supported")
      }
      const method = input.tokenEndpointAuthMethod ?? "none"
      const authMethod = AUTH_METHODS.find((m) => m === method)
      if (authMethod === undefined) {
        return yield* oauthError(
          "invalid_client_metadata",
          `token_endpoint_auth_method: expected one of ${AUTH_METHODS.join(", ")}`
        )
      }
      let scopes: ReadonlyArray<string> | null = null
      if (input.scope !== undefined) {
        const parsed = parseScope(input.scope, OAUTH_SCOPES)
        if (Result.isFailure(parsed)) {
          return yield* oauthError(
            "invalid_client_metadata",
            parsed.failure === "" ? "scope: no scope given" : `scope: unknown scope ${parsed.failure}`
          )
        }
        scopes = parsed.success
      }
      for (const [field, value] of [
        ["logo_uri", input.logoUri],
        ["client_uri", input.clientUri]
      ] as const) {
        if (value !== undefined && !isWebUrl(value)) {
          return yield* oauthError("invalid_client_metadata", `${field}: expected an http or https URL`)
        }
      }
      const clientSecret = authMethod === "none" ? null : yield* generateSecret(CLIENT_SECRET_PREFIX)
      const application: OAuthApplication = {
        id: yield* newIdText,
        clientId: yield* generateSecret(CLIENT_ID_PREFIX),
        clientSecretHash: clientSecret === null ? null : yield* hashSecret(clientSecret),
        name: input.clientName,
        description: null,
        overview: null,
        developerName: null,
        logoUrl: input.logoUri ?? null,
        website: input.clientUri ?? null,
        installUrl: null,
        screenshots: [],
        redirectUris: [...new Set(input.redirectUris)],
        scopes,
        grantTypes: [...new Set(grantTypes)],
        responseTypes: [...new Set(responseTypes)],
        tokenEndpointAuthMethod: authMethod,
        status: "draft",
        teamId: null,
        createdAt: isoAt(yield* nowMillis)
      }
      yield* repo.insertApplication(application)
      return { application, clientSecret }
    })

    /** The client and a redirect URI registered for it exactly; errors here are never redirected. */
    const verifiedClient = Effect.fn("OAuth.verifiedClient")(function* (clientId: string, redirectUri: string) {
      const app = yield* repo.findApplicationByClientId(clientId)
      if (Option.isNone(app)) return yield* oauthError("invalid_request", "client_id: unknown client")
      if (!app.value.redirectUris.includes(redirectUri)) {
        return yield* oauthError("invalid_request", "redirect_uri: not registered for this client")
      }
      if (app.value.status === "rejected") {
        return yield* redirectableError("unauthorized_client", "this application was rejected")
      }
      return app.value
    })

    const checkChallenge = (app: OAuthApplication, challenge: string | undefined) => {
      if (challenge !== undefined && !isS256Challenge(challenge)) {
        return Effect.fail(
          redirectableError("invalid_request", "code_challenge: expected a base64url S256 challenge (43 characters)")
        )
      }
      if (challenge === undefined && app.tokenEndpointAuthMethod === "none") {
        return Effect.fail(redirectableError("invalid_request", "code_challenge: PKCE (S256) is required"))
      }
      return Effect.void
    }

    const allowedScopes = (app: OAuthApplication, requested: ReadonlyArray<string>) =>
      app.scopes === null || isSubset(requested, app.scopes)
        ? Effect.void
        : Effect.fail(
            redirectableError(
              "invalid_scope",
              `scope: not registered for this client: ${requested.filter((s) => !app.scopes?.includes(s)).join(" ")}`
            )
          )

    const consent = Effect.fn("OAuth.consent")(function* (request: AuthorizationRequest) {
      const app = yield* verifiedClient(request.clientId, request.redirectUri)
      if (request.responseType !== "code") {
        return yield* redirectableError("unsupported_response_type", "response_type: only code is supported")
      }
      const parsed = parseScope(request.scope, OAUTH_SCOPES)
      if (Result.isFailure(parsed)) {
        return yield* redirectableError(
          "invalid_scope",
          parsed.failure === "" ? "scope: no scope requested" : `scope: unknown scope ${parsed.failure}`
        )
      }
      yield* allowedScopes(app, parsed.success)
      if (request.codeChallengeMethod !== undefined && request.codeChallengeMethod !== "S256") {
        return yield* redirectableError("invalid_request", "code_challenge_method: only S256 is supported")
      }
      if (request.codeChallengeMethod !== undefined && request.codeChallenge === undefined) {
        return yield* redirectableError("invalid_request", "code_challenge: missing")
      }
      yield* checkChallenge(app, request.codeChallenge)
      return { application: app, scopes: parsed.success, redirectUri: request.redirectUri, state: request.state }
    })

    const withState = (params: Record<string, string>, state: string | undefined) =>
      state === undefined ? params : { ...params, state }

    const decide = Effect.fn("OAuth.decide")(function* (userId: UserId, decision: AuthorizationDecision) {
      const app = yield* verifiedClient(decision.clientId, decision.redirectUri)
      if (decision.decision === "deny") {
        return {
          redirectUri: decision.redirectUri,
          params: withState(
            { error: "access_denied", error_description: "the user denied the request" },
            decision.state
          )
        }
      }
      const scopes = [...new Set(decision.scopes)]
      if (scopes.length === 0) return yield* redirectableError("invalid_scope", "scopes: no scope granted")
      const unknown = scopes.find((s) => !(DECISION_SCOPES as ReadonlyArray<string>).includes(s))
      if (unknown !== undefined) return yield* redirectableError("invalid_scope", `scopes: unknown scope ${unknown}`)
      yield* allowedScopes(app, scopes)
      yield* checkChallenge(app, decision.codeChallenge)
      const membership = yield* teams.membership(decision.teamId, userId)
      if (Option.isNone(membership)) {
        return yield* redirectableError("access_denied", "teamId: the user is not a member of that team")
      }
      const now = yield* nowMillis
      const code = yield* generateSecret(CODE_PREFIX)
      const stored: AuthorizationCode = {
        codeHash: yield* hashSecret(code),
        grantId: yield* newIdText,
        applicationId: app.id,
        teamId: decision.teamId,
        userId,
        scopes,
        redirectUri: decision.redirectUri,
        codeChallenge: decision.codeChallenge ?? null,
        expiresAt: isoAt(now + CODE_TTL_SECONDS * 1000),
        usedAt: null,
        createdAt: isoAt(now)
      }
      yield* transactor.withTransaction(
        Effect.gen(function* () {
          const owner = yield* repo.claimApplication(app.id, decision.teamId)
          if (owner !== decision.teamId && app.status !== "approved") {
            return yield* redirectableError(
              "unauthorized_client",
              "this application belongs to another team and is not approved for other teams"
            )
          }
          yield* repo.insertCode(stored)
        })
      )
      return { redirectUri: decision.redirectUri, params: withState({ code }, decision.state) }
    })

    const authenticateClient = Effect.fn("OAuth.authenticateClient")(function* (client: ClientCredentials) {
      if (client.clientId === undefined || client.clientId === "") {
        return yield* oauthError("invalid_client", "client authentication failed: client_id is missing")
      }
      const found = yield* repo.findApplicationByClientId(client.clientId)
      if (Option.isNone(found)) return yield* oauthError("invalid_client", "client authentication failed")
      const app = found.value
      if (app.clientSecretHash === null) {
        if (client.clientSecret !== undefined) {
          return yield* oauthError("invalid_client", "client authentication failed: this client has no secret")
        }
      } else {
        if (client.clientSecret === undefined) {
          return yield* oauthError("invalid_client", "client authentication failed: client_secret is missing")
        }
        if (!constantTimeEqual(yield* hashSecret(client.clientSecret), app.clientSecretHash)) {
          return yield* oauthError("invalid_client", "client authentication failed")
        }
      }
      if (app.status === "rejected") return yield* oauthError("unauthorized_client", "this application was rejected")
      return app
    })

    const requireGrantType = (app: OAuthApplication, grantType: string) =>
      app.grantTypes.includes(grantType)
        ? Effect.void
        : Effect.fail(oauthError("unauthorized_client", `this client may not use the ${grantType} grant`))

    const issueTokens = (
      grant: {
        readonly grantId: string
        readonly applicationId: string
        readonly teamId: TeamId
        readonly userId: UserId
      },
      accessScopes: ReadonlyArray<string>,
      refreshScopes: ReadonlyArray<string>,
      now: number
    ) =>
      Effect.gen(function* () {
        const accessToken = yield* generateSecret(ACCESS_TOKEN_PREFIX)
        const refreshToken = yield* generateSecret(REFRESH_TOKEN_PREFIX)
        const base = {
          grantId: grant.grantId,
          applicationId: grant.applicationId,
          teamId: grant.teamId,
          userId: grant.userId,
          rotatedAt: null,
          revokedAt: null,
          createdAt: isoAt(now)
        }
        yield* repo.insertToken({
          ...base,
          id: yield* newIdText,
          tokenHash: yield* hashSecret(accessToken),
          kind: "access",
          scopes: accessScopes,
          expiresAt: isoAt(now + ACCESS_TOKEN_TTL_SECONDS * 1000)
        })
        yield* repo.insertToken({
          ...base,
          id: yield* newIdText,
          tokenHash: yield* hashSecret(refreshToken),
          kind: "refresh",
          scopes: refreshScopes,
          expiresAt: isoAt(now + REFRESH_TOKEN_TTL_SECONDS * 1000)
        })
        return { accessToken, refreshToken, expiresIn: ACCESS_TOKEN_TTL_SECONDS, scope: formatScope(accessScopes) }
      })

    const revokeGrantAndFail = (grantId: string, description: string) =>
      Effect.gen(function* () {
        yield* repo.revokeGrant(grantId, isoAt(yield* nowMillis))
        return yield* oauthError("invalid_grant", description)
      })

    const exchangeCode = Effect.fn("OAuth.exchangeCode")(function* (
      client: ClientCredentials,
      input: {
        readonly code: string | undefined
        readonly redirectUri: string | undefined
        readonly codeVerifier: string | undefined
      }
    ) {
      const app = yield* authenticateClient(client)
      yield* requireGrantType(app, "authorization_code")
      if (input.code === undefined || input.code === "") return yield* oauthError("invalid_request", "code: missing")
      if (input.redirectUri === undefined) return yield* oauthError("invalid_request", "redirect_uri: missing")
      if (input.codeVerifier !== undefined && !isCodeVerifier(input.codeVerifier)) {
        return yield* oauthError("invalid_request", "code_verifier: expected 43 to 128 unreserved characters")
      }
      const codeHash = yield* hashSecret(input.code)
      const found = yield* repo.findCode(codeHash)
      if (Option.isNone(found)) return yield* oauthError("invalid_grant", "the authorization code is invalid")
      const code = found.value
      if (code.applicationId !== app.id) {
        return yield* oauthError("invalid_grant", "the authorization code was issued to another client")
      }
      if (code.usedAt !== null) {
        return yield* revokeGrantAndFail(
          code.grantId,
          "the authorization code was already used; every token issued from it is revoked"
        )
      }
      const now = yield* nowMillis
      if (Date.parse(code.expiresAt) <= now) return yield* oauthError("invalid_grant", "the authorization code expired")
      if (code.redirectUri !== input.redirectUri) {
        return yield* oauthError("invalid_grant", "redirect_uri does not match the authorization request")
      }
      if (code.codeChallenge === null && input.codeVerifier !== undefined) {
        return yield* oauthError(
          "invalid_grant",
          "code_verifier sent, but the authorization request had no code_challenge"
        )
      }
      if (code.codeChallenge !== null) {
        if (input.codeVerifier === undefined) return yield* oauthError("invalid_grant", "code_verifier: missing")
        if (!(yield* verifyS256(input.codeVerifier, code.codeChallenge))) {
          return yield* oauthError("invalid_grant", "code_verifier does not match the code_challenge")
        }
      }
      const issued = yield* transactor.withTransaction(
        Effect.gen(function* () {
          if (!(yield* repo.consumeCode(codeHash, isoAt(now)))) return Option.none<TokenSet>()
          return Option.some(yield* issueTokens(code, code.scopes, code.scopes, now))
        })
      )
      if (Option.isNone(issued)) {
        return yield* revokeGrantAndFail(
          code.grantId,
          "the authorization code was already used; every token issued from it is revoked"
        )
      }
      return issued.value
    })

    const refresh = Effect.fn("OAuth.refresh")(function* (
      client: ClientCredentials,
      input: { readonly refreshToken: string | undefined; readonly scope: string | undefined }
    ) {
      const app = yield* authenticateClient(client)
      yield* requireGrantType(app, "refresh_token")
      if (input.refreshToken === undefined || input.refreshToken === "") {
        return yield* oauthError("invalid_request", "refresh_token: missing")
      }
      const found = yield* repo.findToken(yield* hashSecret(input.refreshToken))
      if (Option.isNone(found) || found.value.kind !== "refresh") {
        return yield* oauthError("invalid_grant", "the refresh token is invalid")
      }
      const token = found.value
      if (token.applicationId !== app.id) {
        return yield* oauthError("invalid_grant", "the refresh token was issued to another client")
      }
      const reused = "the refresh token was already used; every token of this grant is revoked"
      if (token.rotatedAt !== null) return yield* revokeGrantAndFail(token.grantId, reused)
      if (token.revokedAt !== null) return yield* oauthError("invalid_grant", "the refresh token was revoked")
      const now = yield* nowMillis
      if (Date.parse(token.expiresAt) <= now) return yield* oauthError("invalid_grant", "the refresh token expired")
      let accessScopes = token.scopes
      if (input.scope !== undefined) {
        const parsed = parseScope(input.scope, DECISION_SCOPES)
        if (Result.isFailure(parsed)) {
          return yield* oauthError(
            "invalid_scope",
            parsed.failure === "" ? "scope: empty" : `scope: unknown scope ${parsed.failure}`
          )
        }
        if (!isSubset(parsed.success, token.scopes)) {
          return yield* oauthError("invalid_scope", "scope: a refresh may narrow the granted scope, never widen it")
        }
        accessScopes = parsed.success
      }
      const issued = yield* transactor.withTransaction(
        Effect.gen(function* () {
          if (!(yield* repo.rotateRefreshToken(token.id, isoAt(now)))) return Option.none<TokenSet>()
          return Option.some(yield* issueTokens(token, accessScopes, token.scopes, now))
        })
      )
      if (Option.isNone(issued)) return yield* revokeGrantAndFail(token.grantId, reused)
      return issued.value
    })

    const revoke = Effect.fn("OAuth.revoke")(function* (client: ClientCredentials, raw: string) {
      const app = yield* authenticateClient(client)
      const found = yield* repo.findToken(yield* hashSecret(raw))
      if (Option.isNone(found)) return
      if (found.value.applicationId !== app.id) {
        return yield* oauthError("unauthorized_client", "the token was not issued to this client")
      }
      const now = isoAt(yield* nowMillis)
      if (found.value.kind === "refresh") yield* repo.revokeGrant(found.value.grantId, now)
      else yield* repo.revokeToken(found.value.id, now)
    })

    const accessToken = Effect.fn("OAuth.accessToken")(function* (raw: string) {
      if (!raw.startsWith(ACCESS_TOKEN_PREFIX)) return Option.none<OAuthToken>()
      const found = yield* repo.findToken(yield* hashSecret(raw))
      const now = yield* nowMillis
      return Option.filter(found, (t) => t.kind === "access" && t.revokedAt === null && Date.parse(t.expiresAt) > now)
    })

    return OAuth.of({ register, consent, decide, exchangeCode, refresh, revoke, accessToken })
  })
  static readonly layer = Layer.effect(OAuth, OAuth.make)
}

const isWebUrl = (value: string): boolean => {
  try {
    const url = new URL(value)
    return (url.protocol === "https:" || url.protocol === "http:") && value.length <= 2000
  } catch {
    return false
  }
}

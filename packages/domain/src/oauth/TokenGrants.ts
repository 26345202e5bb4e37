import { Clock, Effect, Option, Result } from "effect"
import { generateSecret, hashSecret, isoOfMillis, newIdText, Transactor } from "../shared/index.ts"
import type { TeamId, UserId } from "../shared/model.ts"
import { type ClientCredentials, makeAuthenticateClient } from "./ClientAuthentication.ts"
import {
  ACCESS_TOKEN_PREFIX,
  ACCESS_TOKEN_TTL_SECONDS,
  REFRESH_TOKEN_PREFIX,
  REFRESH_TOKEN_TTL_SECONDS
} from "./OAuthCredentials.ts"
import type { OAuthApplication, OAuthToken } from "./OAuthEntities.ts"
import { oauthError } from "./OAuthError.ts"
import { OAuthRepo } from "./OAuthRepo.ts"
import { isCodeVerifier, verifyS256 } from "./Pkce.ts"
import { DECISION_SCOPES, formatScope, isSubset, parseScope } from "./Scopes.ts"

/** The token endpoint's success (RFC 6749 5.1). */
export interface TokenSet {
  readonly accessToken: string
  readonly refreshToken: string
  readonly expiresIn: number
  readonly scope: string
}

/** The grant the tokens belong to. */
interface Grant {
  readonly grantId: string
  readonly applicationId: string
  readonly teamId: TeamId
  readonly userId: UserId
}

const requireGrantType = (app: OAuthApplication, grantType: string) =>
  app.grantTypes.includes(grantType)
    ? Effect.void
    : Effect.fail(oauthError("unauthorized_client", `this client may not use the ${grantType} grant`))

/** The token endpoint's grants (authorization code with PKCE, rotating refresh tokens) and access token lookup. */
export const makeTokenGrants = Effect.gen(function* () {
  const repo = yield* OAuthRepo
  const transactor = yield* Transactor
  const authenticateClient = yield* makeAuthenticateClient

  const issueTokens = (
    grant: Grant,
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
        createdAt: isoOfMillis(now)
      }
      yield* repo.insertToken({
        ...base,
        id: yield* newIdText,
        tokenHash: yield* hashSecret(accessToken),
        kind: "access",
        scopes: accessScopes,
        expiresAt: isoOfMillis(now + ACCESS_TOKEN_TTL_SECONDS * 1000)
      })
      yield* repo.insertToken({
        ...base,
        id: yield* newIdText,
        tokenHash: yield* hashSecret(refreshToken),
        kind: "refresh",
        scopes: refreshScopes,
        expiresAt: isoOfMillis(now + REFRESH_TOKEN_TTL_SECONDS * 1000)
      })
      return {
        accessToken,
        refreshToken,
        expiresIn: ACCESS_TOKEN_TTL_SECONDS,
        scope: formatScope(accessScopes)
      } satisfies TokenSet
    })

  const revokeGrantAndFail = (grantId: string, description: string) =>
    Effect.gen(function* () {
      yield* repo.revokeGrant(grantId, isoOfMillis(yield* Clock.currentTimeMillis))
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
    const reused = "the authorization code was already used; every token issued from it is revoked"
    if (code.usedAt !== null) return yield* revokeGrantAndFail(code.grantId, reused)
    const now = yield* Clock.currentTimeMillis
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
        if (!(yield* repo.consumeCode(codeHash, isoOfMillis(now)))) return Option.none<TokenSet>()
        return Option.some(yield* issueTokens(code, code.scopes, code.scopes, now))
      })
    )
    if (Option.isNone(issued)) return yield* revokeGrantAndFail(code.grantId, reused)
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
    const now = yield* Clock.currentTimeMillis
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
        if (!(yield* repo.rotateRefreshToken(token.id, isoOfMillis(now)))) return Option.none<TokenSet>()
        return Option.some(yield* issueTokens(token, accessScopes, token.scopes, now))
      })
    )
    if (Option.isNone(issued)) return yield* revokeGrantAndFail(token.grantId, reused)
    return issued.value
  })

  const accessToken = Effect.fn("OAuth.accessToken")(function* (raw: string) {
    if (!raw.startsWith(ACCESS_TOKEN_PREFIX)) return Option.none<OAuthToken>()
    const found = yield* repo.findToken(yield* hashSecret(raw))
    const now = yield* Clock.currentTimeMillis
    return Option.filter(found, (t) => t.kind === "access" && t.revokedAt === null && Date.parse(t.expiresAt) > now)
  })

  return { exchangeCode, refresh, accessToken }
})

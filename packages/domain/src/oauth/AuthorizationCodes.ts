import { Clock, Effect, Option, Result } from "effect"
import { TeamsRepo } from "../identity/index.ts"
import { generateSecret, hashSecret, isoOfMillis, newIdText, Transactor } from "../shared/index.ts"
import type { TeamId, UserId } from "../shared/model.ts"
import { CODE_PREFIX, CODE_TTL_SECONDS } from "./OAuthCredentials.ts"
import type { AuthorizationCode, OAuthApplication } from "./OAuthEntities.ts"
import { oauthError, redirectableError } from "./OAuthError.ts"
import { OAuthRepo } from "./OAuthRepo.ts"
import { isS256Challenge } from "./Pkce.ts"
import { DECISION_SCOPES, isSubset, OAUTH_SCOPES, parseScope } from "./Scopes.ts"

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

const withState = (params: Record<string, string>, state: string | undefined) =>
  state === undefined ? params : { ...params, state }

/** The authorization endpoint: consent for a verified client, then the user's decision, which issues a code. */
export const makeAuthorization = Effect.gen(function* () {
  const repo = yield* OAuthRepo
  const teams = yield* TeamsRepo
  const transactor = yield* Transactor

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
    return {
      application: app,
      scopes: parsed.success,
      redirectUri: request.redirectUri,
      state: request.state
    } satisfies Consent
  })

  const decide = Effect.fn("OAuth.decide")(function* (userId: UserId, decision: AuthorizationDecision) {
    const app = yield* verifiedClient(decision.clientId, decision.redirectUri)
    if (decision.decision === "deny") {
      return {
        redirectUri: decision.redirectUri,
        params: withState({ error: "access_denied", error_description: "the user denied the request" }, decision.state)
      } satisfies AuthorizationResponse
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
    const now = yield* Clock.currentTimeMillis
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
      expiresAt: isoOfMillis(now + CODE_TTL_SECONDS * 1000),
      usedAt: null,
      createdAt: isoOfMillis(now)
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
    return {
      redirectUri: decision.redirectUri,
      params: withState({ code }, decision.state)
    } satisfies AuthorizationResponse
  })

  return { consent, decide }
})

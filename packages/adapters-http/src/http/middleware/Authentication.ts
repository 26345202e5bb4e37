import {
  ACCESS_TOKEN_PREFIX,
  type ActiveSession,
  constantTimeEqual,
  DASHBOARD_SESSION_PREFIX,
  DashboardSignIn,
  hasScope,
  isPersistenceUnavailable,
  isPersonalToken,
  type PersistenceUnavailable,
  TeamCredentials,
  type TeamPrincipal,
  Teams,
  type User,
  Users
} from "@svc/domain"
import { Context, Effect, Layer, Option, Redacted, Result } from "effect"
import { HttpServerRequest, type HttpServerResponse } from "effect/http"
import type { HttpApiEndpoint } from "effect/http-api"
import {
  AgentAuth,
  CSRF_HEADER,
  CurrentAgent,
  CurrentDashboardSession,
  CurrentTeamPrincipal,
  CurrentUser,
  DashboardAuth,
  DashboardSessionAuth,
  PlatformAuth,
  RequiredScope,
  SessionAuth,
  unauthorized
} from "../../api/shared/index.ts"
import { errorResponse, storeUnavailableResponse } from "./ErrorResponses.ts"
import { InProcessToolCall, ResolvedAgents } from "./ResolvedAgent.ts"
import { looksLikeJwt, SessionTokens } from "./SessionTokens.ts"

/** The public base URL of this service (`PUBLIC_BASE_URL`), used in OAuth metadata and WWW-Authenticate. */
export class PublicBaseUrl extends Context.Service<PublicBaseUrl, string>()("@svc/adapters-http/PublicBaseUrl") {}

/** 401 with the RFC 6750 challenge; OAuth-protected routes also point at their resource metadata (RFC 9728). */
const unauthorizedResponse = (resourceMetadata: string | undefined) =>
  errorResponse(401, "unauthorized", "missing, malformed, unknown, revoked or expired credential", {
    headers: {
      "www-authenticate": resourceMetadata === undefined ? "Bearer" : `Bearer resource_metadata="${resourceMetadata}"`
    }
  })

/** The credentials an agent route (/v1) takes, as its 401 challenges name them. */
const AGENT_CREDENTIALS = "a spending key (svc_ or svc_test_) or a team API key (svcteam_)"

/**
 * 401 for an OAuth access token on an agent route: the usual body, and a challenge (RFC 6750 `invalid_token`) naming
 * the credentials the route takes instead.
 */
const oauthTokenOnAgentRoute = () =>
  errorResponse(
    401,
    "unauthorized",
    `an OAuth access token is not accepted here; this route takes ${AGENT_CREDENTIALS}`,
    {
      headers: {
        "www-authenticate": `Bearer error="invalid_token", error_description="this route takes ${AGENT_CREDENTIALS}, not an OAuth access token"`
      }
    }
  )

/** The store is down while checking a credential: 503, so clients retry. */
const whenStoreDown = <E, R>(self: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
  Effect.catchIf(self, isPersistenceUnavailable, () => Effect.succeed(storeUnavailableResponse())) as Effect.Effect<
    HttpServerResponse.HttpServerResponse,
    Exclude<E, PersistenceUnavailable>,
    R
  >

const insufficientScope = (scope: string) =>
  errorResponse(403, "insufficient_scope", `this credential lacks the scope ${scope}`)

const requiredScope = (endpoint: HttpApiEndpoint.Top): string | undefined =>
  Option.getOrUndefined(Context.getOption(endpoint.annotations as Context.Context<RequiredScope>, RequiredScope))

const API_KEY_PREFIX = "svcapi_"

const SAFE_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS"])

const csrfFailed = () =>
  errorResponse(
    403,
    "csrf_failed",
    "a request authenticated by the session cookie must send the session's CSRF token in x-csrf-token, from this site"
  )

/**
 * A request without an Authorization header goes on to the session cookie: the bearer scheme fails (the next scheme
 * is tried) only then; any Authorization header, even a malformed one, is answered by the bearer scheme.
 */
const withoutAuthorization = Effect.gen(function* () {
  const request = yield* HttpServerRequest.HttpServerRequest
  return request.headers.authorization === undefined
})

/**
 * The live dashboard session behind the `svc_session` cookie, or the response refusing the request: 401 without a
 * live browser session (a personal token is a bearer credential only, so it never reaches the cookie-only routes that
 * make more tokens); 403 csrf_failed when an unsafe method lacks the session's CSRF token or comes from another origin.
 */
const cookieSessions = Effect.gen(function* () {
  const signIn = yield* DashboardSignIn
  const origin = new URL(yield* PublicBaseUrl).origin
  return (credential: string, resourceMetadata: string | undefined) =>
    Effect.gen(function* () {
      const active = credential === "" ? Option.none<ActiveSession>() : yield* signIn.authenticate(credential)
      if (Option.isNone(active) || isPersonalToken(active.value.session)) {
        return Result.fail(unauthorizedResponse(resourceMetadata))
      }
      const request = yield* HttpServerRequest.HttpServerRequest
      if (!SAFE_METHODS.has(request.method.toUpperCase())) {
        const csrf = request.headers[CSRF_HEADER] ?? ""
        const requestOrigin = request.headers.origin
        if (!constantTimeEqual(csrf, active.value.session.csrfToken)) return Result.fail(csrfFailed())
        if (requestOrigin !== undefined && requestOrigin !== origin) return Result.fail(csrfFailed())
      }
      return Result.succeed(active.value)
    })
})

/**
 * The person behind a session credential: a session JWT (its user provisioned on first use) or a dashboard session
 * token (`svcsess_`, live); none for anything else.
 */
const sessionUsers = Effect.gen(function* () {
  const sessions = yield* SessionTokens
  const users = yield* Users
  const signIn = yield* DashboardSignIn
  return (token: string): Effect.Effect<Option.Option<User>, PersistenceUnavailable> =>
    token.startsWith(DASHBOARD_SESSION_PREFIX)
      ? Effect.map(
          signIn.authenticate(token),
          Option.map((active) => active.user)
        )
      : looksLikeJwt(token)
        ? Effect.flatMap(sessions.verify(token), (identity) =>
            Option.isNone(identity) ? Effect.succeedNone : Effect.asSome(users.provision(identity.value))
          )
        : Effect.succeedNone
})

/** The four authentication middlewares, one per credential family of CONTRACT.md's table, and the cookie's own. */
export const AuthenticationLive = Layer.mergeAll(
  Layer.effect(
    SessionAuth,
    Effect.gen(function* () {
      const userOf = yield* sessionUsers
      const fromCookie = yield* cookieSessions
      return SessionAuth.of({
        bearer: (httpEffect, { credential }) =>
          Effect.gen(function* () {
            if (yield* withoutAuthorization) return yield* Effect.fail(unauthorized())
            const user = yield* userOf(Redacted.value(credential))
            if (Option.isNone(user)) return unauthorizedResponse(undefined)
            return yield* Effect.provideService(httpEffect, CurrentUser, user.value)
          }).pipe(whenStoreDown),
        sessionCookie: (httpEffect, { credential }) =>
          Effect.gen(function* () {
            const active = yield* fromCookie(Redacted.value(credential), undefined)
            if (Result.isFailure(active)) return active.failure
            return yield* Effect.provideService(httpEffect, CurrentUser, active.success.user)
          }).pipe(whenStoreDown)
      })
    })
  ),
  Layer.effect(
    AgentAuth,
    Effect.gen(function* () {
      const resolved = yield* ResolvedAgents
      return AgentAuth.of({
        bearer: (httpEffect, { credential, endpoint }) =>
          Effect.gen(function* () {
            const request = yield* HttpServerRequest.HttpServerRequest
            const token = Redacted.value(credential)
            const agent = yield* resolved.agentOf(request, token)
            if (Option.isNone(agent)) {
              return token.startsWith(ACCESS_TOKEN_PREFIX) && !(yield* InProcessToolCall)
                ? oauthTokenOnAgentRoute()
                : unauthorizedResponse(undefined)
            }
            const scope = requiredScope(endpoint)
            if (scope !== undefined && !hasScope(agent.value.scopes, scope)) return insufficientScope(scope)
            return yield* Effect.provideService(httpEffect, CurrentAgent, agent.value)
          }).pipe(whenStoreDown)
      })
    })
  ),
  Layer.effect(
    DashboardAuth,
    Effect.gen(function* () {
      const resolve = yield* teamPrincipalResolver
      return DashboardAuth.of({
        bearer: (httpEffect, { credential, endpoint }) =>
          resolve.bearer(Redacted.value(credential), endpoint, ["session", "oauth"], (principal) =>
            Effect.provideService(httpEffect, CurrentTeamPrincipal, principal)
          ),
        sessionCookie: (httpEffect, { credential, endpoint }) =>
          resolve.cookie(Redacted.value(credential), endpoint, (principal) =>
            Effect.provideService(httpEffect, CurrentTeamPrincipal, principal)
          )
      })
    })
  ),
  Layer.effect(
    PlatformAuth,
    Effect.gen(function* () {
      const resolve = yield* teamPrincipalResolver
      return PlatformAuth.of({
        bearer: (httpEffect, { credential, endpoint }) =>
          resolve.bearer(Redacted.value(credential), endpoint, ["session", "oauth", "api_key"], (principal) =>
            Effect.provideService(httpEffect, CurrentTeamPrincipal, principal)
          ),
        sessionCookie: (httpEffect, { credential, endpoint }) =>
          resolve.cookie(Redacted.value(credential), endpoint, (principal) =>
            Effect.provideService(httpEffect, CurrentTeamPrincipal, principal)
          )
      })
    })
  ),
  Layer.effect(
    DashboardSessionAuth,
    Effect.gen(function* () {
      const fromCookie = yield* cookieSessions
      return DashboardSessionAuth.of({
        sessionCookie: (httpEffect, { credential }) =>
          Effect.gen(function* () {
            const active = yield* fromCookie(Redacted.value(credential), undefined)
            if (Result.isFailure(active)) return active.failure
            return yield* Effect.provideService(httpEffect, CurrentDashboardSession, active.success)
          }).pipe(whenStoreDown)
      })
    })
  )
)

const teamPrincipalResolver = Effect.gen(function* () {
  const userOf = yield* sessionUsers
  const teams = yield* Teams
  const credentials = yield* TeamCredentials
  const fromCookie = yield* cookieSessions
  const baseUrl = yield* PublicBaseUrl
  const resourceMetadata = `${baseUrl}/.well-known/oauth-protected-resource`

  /** A person's principal, as a session JWT of theirs or their dashboard session makes it. */
  const sessionPrincipal = (user: User) =>
    Effect.map(
      teams.current(user),
      (membership): TeamPrincipal => ({
        kind: "session",
        userId: user.id,
        teamId: Option.match(membership, { onNone: () => null, onSome: (m) => m.team.id }),
        role: Option.match(membership, { onNone: () => null, onSome: (m) => m.role }),
        scopes: null,
        credentialId: `session:${user.id}`
      })
    )

  const fromSession = (token: string) =>
    Effect.flatMap(userOf(token), (user) =>
      Option.isNone(user) ? Effect.succeedNone : Effect.asSome(sessionPrincipal(user.value))
    )

  const admit = <E, R>(
    principal: Option.Option<TeamPrincipal>,
    endpoint: HttpApiEndpoint.Top,
    accepted: ReadonlyArray<TeamPrincipal["kind"]>,
    next: (principal: TeamPrincipal) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
  ) =>
    Effect.gen(function* () {
      if (Option.isNone(principal) || !accepted.includes(principal.value.kind))
        return unauthorizedResponse(resourceMetadata)
      const scope = requiredScope(endpoint)
      if (scope !== undefined && !hasScope(principal.value.scopes, scope)) return insufficientScope(scope)
      return yield* next(principal.value)
    })

  return {
    bearer: <E, R>(
      token: string,
      endpoint: HttpApiEndpoint.Top,
      accepted: ReadonlyArray<TeamPrincipal["kind"]>,
      next: (principal: TeamPrincipal) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
    ) =>
      Effect.gen(function* () {
        if (yield* withoutAuthorization) return yield* Effect.fail(unauthorized())
        const principal =
          token.startsWith(ACCESS_TOKEN_PREFIX) || token.startsWith(API_KEY_PREFIX)
            ? yield* credentials.authenticate(token)
            : yield* fromSession(token)
        return yield* admit(principal, endpoint, accepted, next)
      }).pipe(whenStoreDown),
    cookie: <E, R>(
      token: string,
      endpoint: HttpApiEndpoint.Top,
      next: (principal: TeamPrincipal) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
    ) =>
      Effect.gen(function* () {
        const active = yield* fromCookie(token, resourceMetadata)
        if (Result.isFailure(active)) return active.failure
        return yield* admit(Option.some(yield* sessionPrincipal(active.success.user)), endpoint, ["session"], next)
      }).pipe(whenStoreDown)
  }
})

import {
  AgentCredentials,
  hasScope,
  isPersistenceUnavailable,
  type PersistenceUnavailable,
  TeamCredentials,
  type TeamPrincipal,
  Teams,
  Users
} from "@svc/domain"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import type { HttpServerResponse } from "effect/http"
import type { HttpApiEndpoint } from "effect/http-api"
import {
  AgentAuth,
  CurrentAgent,
  CurrentTeamPrincipal,
  CurrentUser,
  DashboardAuth,
  PlatformAuth,
  RequiredScope,
  SessionAuth
} from "../../api/shared/index.ts"
import { errorResponse, storeUnavailableResponse } from "./ErrorResponses.ts"
import { agentOf } from "./ResolvedAgent.ts"
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

const OAUTH_ACCESS_PREFIX = "mid_access_token_"
const API_KEY_PREFIX = "svcapi_"

/** The four authentication middlewares, one per credential family of CONTRACT.md's table. */
export const AuthenticationLive = Layer.mergeAll(
  Layer.effect(
    SessionAuth,
    Effect.gen(function* () {
      const sessions = yield* SessionTokens
      const users = yield* Users
      return SessionAuth.of({
        bearer: (httpEffect, { credential }) =>
          Effect.gen(function* () {
            const token = Redacted.value(credential)
            const identity = looksLikeJwt(token) ? yield* sessions.verify(token) : Option.none()
            if (Option.isNone(identity)) return unauthorizedResponse(undefined)
            const user = yield* users.provision(identity.value)
            return yield* Effect.provideService(httpEffect, CurrentUser, user)
          }).pipe(whenStoreDown)
      })
    })
  ),
  Layer.effect(
    AgentAuth,
    Effect.gen(function* () {
      const agents = yield* AgentCredentials
      return AgentAuth.of({
        bearer: (httpEffect, { credential, endpoint }) =>
          Effect.gen(function* () {
            const agent = yield* agentOf(Redacted.value(credential)).pipe(
              Effect.provideService(AgentCredentials, agents)
            )
            if (Option.isNone(agent)) return unauthorizedResponse(undefined)
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
          resolve(Redacted.value(credential), endpoint, ["session", "oauth"], (principal) =>
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
          resolve(Redacted.value(credential), endpoint, ["session", "oauth", "api_key"], (principal) =>
            Effect.provideService(httpEffect, CurrentTeamPrincipal, principal)
          )
      })
    })
  )
)

const teamPrincipalResolver = Effect.gen(function* () {
  const sessions = yield* SessionTokens
  const users = yield* Users
  const teams = yield* Teams
  const credentials = yield* TeamCredentials
  const baseUrl = yield* PublicBaseUrl
  const resourceMetadata = `${baseUrl}/.well-known/oauth-protected-resource`

  const fromSession = (token: string) =>
    Effect.gen(function* () {
      const identity = yield* sessions.verify(token)
      if (Option.isNone(identity)) return Option.none<TeamPrincipal>()
      const user = yield* users.provision(identity.value)
      const membership = yield* teams.current(user)
      return Option.some<TeamPrincipal>({
        kind: "session",
        userId: user.id,
        teamId: Option.match(membership, { onNone: () => null, onSome: (m) => m.team.id }),
        role: Option.match(membership, { onNone: () => null, onSome: (m) => m.role }),
        scopes: null,
        credentialId: `session:${user.id}`
      })
    })

  return <E, R>(
    token: string,
    endpoint: HttpApiEndpoint.Top,
    accepted: ReadonlyArray<TeamPrincipal["kind"]>,
    next: (principal: TeamPrincipal) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
  ) =>
    Effect.gen(function* () {
      const principal = looksLikeJwt(token)
        ? yield* fromSession(token)
        : token.startsWith(OAUTH_ACCESS_PREFIX) || token.startsWith(API_KEY_PREFIX)
          ? yield* credentials.authenticate(token)
          : Option.none<TeamPrincipal>()
      if (Option.isNone(principal) || !accepted.includes(principal.value.kind))
        return unauthorizedResponse(resourceMetadata)
      const scope = requiredScope(endpoint)
      if (scope !== undefined && !hasScope(principal.value.scopes, scope)) return insufficientScope(scope)
      return yield* next(principal.value)
    }).pipe(whenStoreDown)
})

import type { ActiveSession, AgentPrincipal, TeamPrincipal, User } from "@svc/domain"
import { Context } from "effect"
import { HttpApiMiddleware, HttpApiSecurity, OpenApi } from "effect/http-api"
import { BadRequest, Forbidden, Unauthorized } from "./ApiErrors.ts"

/** The scope an endpoint needs; read by the authentication middleware. */
export class RequiredScope extends Context.Service<RequiredScope, string>()("@svc/adapters-http/RequiredScope") {}

/** The signed-in user of a session-only route. */
export class CurrentUser extends Context.Service<CurrentUser, User>()("@svc/adapters-http/CurrentUser") {}

/** The agent behind a /v1 request. */
export class CurrentAgent extends Context.Service<CurrentAgent, AgentPrincipal>()("@svc/adapters-http/CurrentAgent") {}

/** The person or app behind a dashboard or business-finance request. */
export class CurrentTeamPrincipal extends Context.Service<CurrentTeamPrincipal, TeamPrincipal>()(
  "@svc/adapters-http/CurrentTeamPrincipal"
) {}

/** The name of the dashboard session cookie (ADR 0037). */
export const SESSION_COOKIE = "svc_session"

/** The header a cookie-authenticated unsafe request carries its session's CSRF token in. */
export const CSRF_HEADER = "x-csrf-token"

/** The dashboard session cookie: HttpOnly, SameSite=Lax; unsafe methods also need the `x-csrf-token` header. */
export const sessionCookie = HttpApiSecurity.apiKey({ key: SESSION_COOKIE, in: "cookie" }).pipe(
  HttpApiSecurity.annotate(
    OpenApi.Description,
    "The dashboard session cookie set by POST /auth/sessions. POST, PUT, PATCH and DELETE requests must also send " +
      "the session's CSRF token in `x-csrf-token` (and, with an `Origin` header, come from this service's origin)."
  )
)

/**
 * `Authorization: Bearer <credential>`. The scheme is written `bearer`, as HTTP's authentication scheme registry
 * names it: reference pages read `Bearer` as an unknown scheme and show a Basic example. Headers match it in any case.
 */
const bearer = HttpApiSecurity.http({ scheme: "bearer" }).pipe(
  HttpApiSecurity.annotate(
    OpenApi.Description,
    "`Authorization: Bearer <credential>`: a spending key (`svc_...`, `svc_test_...`) or team API key (`svcteam_...`) on " +
      "/v1; a session JWT, an OAuth access token (`mid_access_token_...`) or a team API key on the routes that say so."
  ),
  HttpApiSecurity.annotate(OpenApi.Format, "svc_..., svcteam_..., session JWT or mid_access_token_...")
)

const security = { bearer }
/** Routes a person may use from the dashboard: a bearer credential, or else the session cookie. */
const personSecurity = { bearer, sessionCookie }
const error = [Unauthorized, Forbidden, BadRequest] as const

/** The live dashboard session behind the cookie of a /auth/session request. */
export class CurrentDashboardSession extends Context.Service<CurrentDashboardSession, ActiveSession>()(
  "@svc/adapters-http/CurrentDashboardSession"
) {}

/** Session JWT (or dashboard session) only: creating teams, keys and webhook endpoints. */
export class SessionAuth extends HttpApiMiddleware.Service<SessionAuth, { provides: CurrentUser }>()(
  "@svc/adapters-http/SessionAuth",
  { security: personSecurity, error, requiredForClient: true }
) {}

/** /v1: a spending key (`svc_`, `svc_test_`) or a team API key (`svcteam_`, by scope). */
export class AgentAuth extends HttpApiMiddleware.Service<AgentAuth, { provides: CurrentAgent }>()(
  "@svc/adapters-http/AgentAuth",
  {
    security,
    error,
    requiredForClient: true
  }
) {}

/** /treasury: a session JWT (or dashboard session) or an OAuth access token (by scope). */
export class DashboardAuth extends HttpApiMiddleware.Service<DashboardAuth, { provides: CurrentTeamPrincipal }>()(
  "@svc/adapters-http/DashboardAuth",
  { security: personSecurity, error, requiredForClient: true }
) {}

/**
 * Business-finance routes, GET /users/me, GET /teams: a session JWT (or dashboard session), an OAuth access token or a
 * generic API key.
 */
export class PlatformAuth extends HttpApiMiddleware.Service<PlatformAuth, { provides: CurrentTeamPrincipal }>()(
  "@svc/adapters-http/PlatformAuth",
  { security: personSecurity, error, requiredForClient: true }
) {}

/** GET and DELETE /auth/session: the dashboard session cookie only. */
export class DashboardSessionAuth extends HttpApiMiddleware.Service<
  DashboardSessionAuth,
  { provides: CurrentDashboardSession }
>()("@svc/adapters-http/DashboardSessionAuth", {
  security: { sessionCookie },
  error,
  requiredForClient: true
}) {}

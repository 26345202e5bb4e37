import type { AgentPrincipal, TeamPrincipal, User } from "@svc/domain"
import { Context } from "effect"
import { HttpApiMiddleware, HttpApiSecurity } from "effect/http-api"
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

const security = { bearer: HttpApiSecurity.bearer }
const error = [Unauthorized, Forbidden, BadRequest] as const

/** Session JWT only: creating teams, keys and webhook endpoints. */
export class SessionAuth extends HttpApiMiddleware.Service<SessionAuth, { provides: CurrentUser }>()(
  "@svc/adapters-http/SessionAuth",
  { security, error, requiredForClient: true }
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

/** /treasury: a session JWT or an OAuth access token (by scope). */
export class DashboardAuth extends HttpApiMiddleware.Service<DashboardAuth, { provides: CurrentTeamPrincipal }>()(
  "@svc/adapters-http/DashboardAuth",
  { security, error, requiredForClient: true }
) {}

/** Business-finance routes, GET /users/me, GET /teams: a session JWT, an OAuth access token or a generic API key. */
export class PlatformAuth extends HttpApiMiddleware.Service<PlatformAuth, { provides: CurrentTeamPrincipal }>()(
  "@svc/adapters-http/PlatformAuth",
  { security, error, requiredForClient: true }
) {}

import { AgentCredentials, type AgentPrincipal, type PersistenceUnavailable } from "@svc/domain"
import { Effect, type Option } from "effect"
import { HttpServerRequest } from "effect/http"

interface Resolution {
  readonly token: string
  readonly agent: Option.Option<AgentPrincipal>
}

/**
 * The agent behind a request's bearer token, once something in the request has looked it up: the /v1 rate limit
 * resolves the token to pick its bucket and leaves the answer here, so authentication does not read the key again.
 * Kept beside the request object (an entry goes with its request), not provided as a service: a service provided
 * around the routes would hide the matched route from the request metrics, which read it as the routes end.
 */
const resolutions = new WeakMap<HttpServerRequest.HttpServerRequest, Resolution>()

/** Leaves the agent `token` resolved to for the rest of this request. */
export const rememberAgent = (
  request: HttpServerRequest.HttpServerRequest,
  token: string,
  agent: Option.Option<AgentPrincipal>
) => Effect.sync(() => resolutions.set(request, { token, agent }))

/** The agent of `token`: as this request already resolved it, else looked up now. */
export const agentOf = (
  token: string
): Effect.Effect<
  Option.Option<AgentPrincipal>,
  PersistenceUnavailable,
  AgentCredentials | HttpServerRequest.HttpServerRequest
> =>
  HttpServerRequest.HttpServerRequest.use((request) => {
    const known = resolutions.get(request)
    return known !== undefined && known.token === token
      ? Effect.succeed(known.agent)
      : AgentCredentials.use((agents) => agents.authenticate(token))
  })

import { AgentCredentials, type AgentPrincipal, type PersistenceUnavailable } from "@svc/domain"
import { Context, Effect, Layer, type Option } from "effect"
import type { HttpServerRequest } from "effect/http"

interface Resolution {
  readonly token: string
  readonly agent: Option.Option<AgentPrincipal>
}

/**
 * The agents behind requests' bearer tokens, as something in each request looked them up: the /v1 rate limit resolves
 * the token to pick its bucket and leaves the answer here, so authentication does not read the key again. One per
 * server, built with it; an entry goes with its request. A server-wide service rather than one provided per request:
 * a service provided around the routes would hide the matched route from the request metrics, which read it as the
 * routes end.
 */
export class ResolvedAgents extends Context.Service<
  ResolvedAgents,
  {
    /** Leaves the agent `token` resolved to for the rest of `request`. */
    readonly remember: (
      request: HttpServerRequest.HttpServerRequest,
      token: string,
      agent: Option.Option<AgentPrincipal>
    ) => Effect.Effect<void>
    /** The agent of `token`: as `request` already resolved it, else looked up now. */
    readonly agentOf: (
      request: HttpServerRequest.HttpServerRequest,
      token: string
    ) => Effect.Effect<Option.Option<AgentPrincipal>, PersistenceUnavailable>
  }
>()("@svc/adapters-http/ResolvedAgents") {
  static readonly layer = Layer.effect(
    ResolvedAgents,
    Effect.gen(function* () {
      const agents = yield* AgentCredentials
      const resolutions = new WeakMap<HttpServerRequest.HttpServerRequest, Resolution>()
      return ResolvedAgents.of({
        remember: (request, token, agent) => Effect.sync(() => resolutions.set(request, { token, agent })),
        agentOf: (request, token) => {
          const known = resolutions.get(request)
          return known !== undefined && known.token === token ? Effect.succeed(known.agent) : agents.authenticate(token)
        }
      })
    })
  )
}

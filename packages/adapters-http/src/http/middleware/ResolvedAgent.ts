import {
  ACCESS_TOKEN_PREFIX,
  AgentCredentials,
  type AgentPrincipal,
  OAuthAppAgents,
  type PersistenceUnavailable
} from "@svc/domain"
import { Context, Effect, Layer, type Option } from "effect"
import type { HttpServerRequest } from "effect/http"

interface Resolution {
  readonly token: string
  readonly agent: Option.Option<AgentPrincipal>
}

/**
 * Set on the requests the MCP server dispatches in process for its tool calls, never on one from the network: only
 * there does an OAuth access token stand for its application's agent. The public /v1 takes agent keys alone.
 */
export const InProcessToolCall = Context.Reference<boolean>("@svc/adapters-http/InProcessToolCall", {
  defaultValue: () => false
})

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
    /** The agent of `token`, looked up now: an agent key; an OAuth access token only within an in-process tool call. */
    readonly lookUp: (token: string) => Effect.Effect<Option.Option<AgentPrincipal>, PersistenceUnavailable>
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
      const apps = yield* OAuthAppAgents
      const resolutions = new WeakMap<HttpServerRequest.HttpServerRequest, Resolution>()
      const lookUp = (token: string) =>
        Effect.gen(function* () {
          const toolCall = yield* InProcessToolCall
          return yield* toolCall && token.startsWith(ACCESS_TOKEN_PREFIX)
            ? apps.authenticate(token)
            : agents.authenticate(token)
        })
      return ResolvedAgents.of({
        lookUp,
        remember: (request, token, agent) => Effect.sync(() => resolutions.set(request, { token, agent })),
        agentOf: (request, token) => {
          const known = resolutions.get(request)
          return known !== undefined && known.token === token ? Effect.succeed(known.agent) : lookUp(token)
        }
      })
    })
  )
}

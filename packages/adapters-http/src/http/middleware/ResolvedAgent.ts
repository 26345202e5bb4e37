import { AgentCredentials, type AgentPrincipal, type PersistenceUnavailable } from "@svc/domain"
import { Context, Effect, Option } from "effect"

interface Resolution {
  readonly token: string
  readonly agent: Option.Option<AgentPrincipal>
}

/**
 * The agent behind a request's bearer token, once something in the request has looked it up: the /v1 rate limit
 * resolves the token to pick its bucket and hands the answer on, so authentication does not read the key again.
 */
export const ResolvedAgent = Context.Reference<Option.Option<Resolution>>("@svc/adapters-http/ResolvedAgent", {
  defaultValue: () => Option.none()
})

/** The agent of `token`: as this request already resolved it, else looked up now. */
export const agentOf = (
  token: string
): Effect.Effect<Option.Option<AgentPrincipal>, PersistenceUnavailable, AgentCredentials> =>
  ResolvedAgent.use((resolved) =>
    Option.isSome(resolved) && resolved.value.token === token
      ? Effect.succeed(resolved.value.agent)
      : AgentCredentials.use((agents) => agents.authenticate(token))
  )

import { Effect, Layer, Option } from "effect"
import { ACCESS_TOKEN_PREFIX } from "../oauth/index.ts"
import { AgentKeys } from "./AgentKeys.ts"
import { AgentCredentials, TeamCredentials } from "./Credentials.ts"
import type { AgentPrincipal, TeamPrincipal } from "./Principals.ts"

/**
 * An OAuth grant acting on /v1 as its team's live agent: like a team API key, limited to the granted scopes, spending
 * from the team's live account under the team's policy; its id is the access token's, so each token is a credential.
 */
const agentOfGrant = (principal: TeamPrincipal): Option.Option<AgentPrincipal> =>
  principal.kind !== "oauth" || principal.teamId === null
    ? Option.none()
    : Option.some({
        kind: "team_key",
        keyId: principal.credentialId,
        teamId: principal.teamId,
        mode: "live",
        accountId: null,
        scopes: principal.scopes ?? [],
        policy: null
      })

/**
 * The AgentCredentials port answered by agent keys (spending keys, team API keys) and by OAuth access tokens, so an
 * app the user authorized (an MCP client) calls /v1 with its token, by scope.
 */
export const AgentCredentialsLive = Layer.effect(
  AgentCredentials,
  Effect.gen(function* () {
    const keys = yield* AgentKeys
    const grants = yield* TeamCredentials
    return AgentCredentials.of({
      authenticate: (raw) =>
        raw.startsWith(ACCESS_TOKEN_PREFIX)
          ? Effect.map(grants.authenticate(raw), Option.flatMap(agentOfGrant))
          : keys.authenticate(raw)
    })
  })
)

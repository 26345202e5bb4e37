import { Effect, Layer, Option } from "effect"
import { ACCESS_TOKEN_PREFIX, OAuth, type OAuthToken } from "../oauth/index.ts"
import { AgentKeys } from "./AgentKeys.ts"
import { AgentCredentials, TeamCredentials } from "./Credentials.ts"
import type { AgentPrincipal } from "./Principals.ts"

/** The name of the team API key an OAuth application acts on /v1 through (one per team and application). */
export const oauthAgentKeyName = (applicationId: string) => `OAuth app ${applicationId}`

/**
 * The AgentCredentials port answered by agent keys (spending keys, team API keys) and by OAuth access tokens, so an
 * app the user authorized (an MCP client) calls /v1 with its token. Spending is attributed to an agent key, so the
 * app acts through a live team API key of its own, issued on its first /v1 call and listed with the team's keys:
 * revoking that key ends the app's /v1 access. It is limited to the token's scopes and spends from the team's live
 * account under the team's policy.
 */
export const AgentCredentialsLive = Layer.effect(
  AgentCredentials,
  Effect.gen(function* () {
    const keys = yield* AgentKeys
    const grants = yield* TeamCredentials
    const oauth = yield* OAuth

    const agentKeyOf = Effect.fn("AgentCredentials.agentKeyOf")(function* (token: OAuthToken) {
      const name = oauthAgentKeyName(token.applicationId)
      const own = (yield* keys.listTeamKeys(token.teamId)).filter((k) => k.name === name && k.mode === "live")
      // Two first calls at once may each issue a key; revoking any of the app's keys still ends its access.
      if (own.some((k) => k.revokedAt !== null)) return Option.none()
      const existing = own[0]
      if (existing !== undefined) return Option.some(existing.id)
      const issued = yield* keys.issueTeamKey({
        teamId: token.teamId,
        createdBy: token.userId,
        name,
        mode: "live",
        scopes: token.scopes
      })
      return Option.some(issued.key.id)
    })

    const fromAccessToken = Effect.fn("AgentCredentials.fromAccessToken")(function* (raw: string) {
      const member = yield* grants.authenticate(raw)
      const token = yield* oauth.accessToken(raw)
      if (Option.isNone(member) || Option.isNone(token)) return Option.none<AgentPrincipal>()
      const keyId = yield* agentKeyOf(token.value)
      return Option.map(
        keyId,
        (id): AgentPrincipal => ({
          kind: "team_key",
          keyId: id,
          teamId: token.value.teamId,
          mode: "live",
          accountId: null,
          scopes: token.value.scopes,
          policy: null
        })
      )
    })

    return AgentCredentials.of({
      authenticate: (raw) => (raw.startsWith(ACCESS_TOKEN_PREFIX) ? fromAccessToken(raw) : keys.authenticate(raw))
    })
  })
)

import { Context, Effect, Layer, Option } from "effect"
import { OAuth, type OAuthToken } from "../oauth/index.ts"
import type { PersistenceUnavailable } from "../shared/model.ts"
import { AgentKeys } from "./AgentKeys.ts"
import { TeamCredentials } from "./Credentials.ts"
import type { AgentPrincipal } from "./Principals.ts"

/** The name of the team API key an OAuth application's agent is attributed to (one per team and application). */
export const oauthAgentKeyName = (applicationId: string) => `OAuth app ${applicationId}`

/**
 * The agent an OAuth access token stands for when the MCP server's tools act with it: the token's team, scopes and
 * (live) mode, attributed to a live team API key of its application, issued on the app's first tool call and listed
 * with the team's keys. The key's secret is never handed out, so nothing but the app's tokens acts as it; revoking it
 * ends the app's tool calls, as revoking the token does. Never a credential of the public /v1.
 */
export class OAuthAppAgents extends Context.Service<
  OAuthAppAgents,
  {
    /** The agent of a raw access token; none when the token is unknown, revoked or expired, or its app's key revoked. */
    readonly authenticate: (raw: string) => Effect.Effect<Option.Option<AgentPrincipal>, PersistenceUnavailable>
  }
>()("@svc/domain/OAuthAppAgents") {
  static readonly layer = Layer.effect(
    OAuthAppAgents,
    Effect.gen(function* () {
      const keys = yield* AgentKeys
      const grants = yield* TeamCredentials
      const oauth = yield* OAuth

      const agentKeyOf = Effect.fn("OAuthAppAgents.agentKeyOf")(function* (token: OAuthToken) {
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

      const authenticate = Effect.fn("OAuthAppAgents.authenticate")(function* (raw: string) {
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

      return OAuthAppAgents.of({ authenticate })
    })
  )
}

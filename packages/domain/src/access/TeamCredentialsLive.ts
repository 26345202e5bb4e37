import { Effect, Layer, Option } from "effect"
import { TeamsRepo } from "../identity/index.ts"
import { ACCESS_TOKEN_PREFIX, OAuth } from "../oauth/index.ts"
import { API_KEY_PREFIX } from "./ApiKey.ts"
import { ApiKeys } from "./ApiKeys.ts"
import { TeamCredentials } from "./Credentials.ts"
import type { TeamPrincipal } from "./Principals.ts"

/**
 * TeamCredentials over OAuth access tokens (`mid_access_token_`, kind "oauth", the granted scopes) and generic API
 * keys (`svcapi_`, kind "api_key"). A credential whose user is no longer a member of its team resolves to none.
 */
export const TeamCredentialsLive = Layer.effect(
  TeamCredentials,
  Effect.gen(function* () {
    const oauth = yield* OAuth
    const apiKeys = yield* ApiKeys
    const teams = yield* TeamsRepo

    const fromAccessToken = Effect.fn("TeamCredentials.fromAccessToken")(function* (raw: string) {
      const token = yield* oauth.accessToken(raw)
      if (Option.isNone(token)) return Option.none<TeamPrincipal>()
      const { teamId, userId, scopes, id } = token.value
      const membership = yield* teams.membership(teamId, userId)
      return Option.map(
        membership,
        (m): TeamPrincipal => ({ kind: "oauth", userId, teamId, role: m.role, scopes, credentialId: id })
      )
    })

    return TeamCredentials.of({
      authenticate: (raw) =>
        raw.startsWith(ACCESS_TOKEN_PREFIX)
          ? fromAccessToken(raw)
          : raw.startsWith(API_KEY_PREFIX)
            ? apiKeys.authenticate(raw)
            : Effect.succeed(Option.none())
    })
  })
)

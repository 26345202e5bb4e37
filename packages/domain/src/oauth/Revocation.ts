import { Clock, Effect, Option } from "effect"
import { hashSecret, isoOfMillis } from "../shared/index.ts"
import { type ClientCredentials, makeAuthenticateClient } from "./ClientAuthentication.ts"
import { oauthError } from "./OAuthError.ts"
import { OAuthRepo } from "./OAuthRepo.ts"

/** RFC 7009 revocation: an access token alone, a refresh token with its whole grant; unknown tokens succeed. */
export const makeRevoke = Effect.gen(function* () {
  const repo = yield* OAuthRepo
  const authenticateClient = yield* makeAuthenticateClient
  return Effect.fn("OAuth.revoke")(function* (client: ClientCredentials, raw: string) {
    const app = yield* authenticateClient(client)
    const found = yield* repo.findToken(yield* hashSecret(raw))
    if (Option.isNone(found)) return
    if (found.value.applicationId !== app.id) {
      return yield* oauthError("unauthorized_client", "the token was not issued to this client")
    }
    const now = isoOfMillis(yield* Clock.currentTimeMillis)
    if (found.value.kind === "refresh") yield* repo.revokeGrant(found.value.grantId, now)
    else yield* repo.revokeToken(found.value.id, now)
  })
})

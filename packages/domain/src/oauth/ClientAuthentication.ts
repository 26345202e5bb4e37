import { Effect, Option } from "effect"
import { constantTimeEqual, hashSecret } from "../shared/index.ts"
import { oauthError } from "./OAuthError.ts"
import { OAuthRepo } from "./OAuthRepo.ts"

/** Client credentials presented at the token or revocation endpoint. */
export interface ClientCredentials {
  readonly clientId: string | undefined
  readonly clientSecret: string | undefined
}

/** RFC 6749 2.3 client authentication: public clients send no secret, confidential ones their own; rejected apps fail. */
export const makeAuthenticateClient = Effect.gen(function* () {
  const repo = yield* OAuthRepo
  return Effect.fn("OAuth.authenticateClient")(function* (client: ClientCredentials) {
    if (client.clientId === undefined || client.clientId === "") {
      return yield* oauthError("invalid_client", "client authentication failed: client_id is missing")
    }
    const found = yield* repo.findApplicationByClientId(client.clientId)
    if (Option.isNone(found)) return yield* oauthError("invalid_client", "client authentication failed")
    const app = found.value
    if (app.clientSecretHash === null) {
      if (client.clientSecret !== undefined) {
        return yield* oauthError("invalid_client", "client authentication failed: this client has no secret")
      }
    } else {
      if (client.clientSecret === undefined) {
        return yield* oauthError("invalid_client", "client authentication failed: client_secret is missing")
      }
      if (!constantTimeEqual(yield* hashSecret(client.clientSecret), app.clientSecretHash)) {
        return yield* oauthError("invalid_client", "client authentication failed")
      }
    }
    if (app.status === "rejected") return yield* oauthError("unauthorized_client", "this application was rejected")
    return app
  })
})

import { assert, layer } from "@effect/vitest"
import { hashSecret, OAuth, s256Challenge } from "@svc/domain"
import { Effect, type Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { newTeam } from "../ledger/LedgerSetup.ts"
import {
  authorize,
  failureOf,
  type OAuthPorts,
  oauthFailure,
  principalOf,
  REDIRECT,
  registerPublic,
  servicesOver,
  VERIFIER
} from "./OAuthSetup.ts"

/** The code grant every OAuthRepo adapter must carry: PKCE, single use, expiry, redirect URIs, secrets, app ownership. */
export const oauthCodesContract = <E>(name: string, ports: Layer.Layer<OAuthPorts, E, never>) =>
  layer(servicesOver(ports), { timeout: "60 seconds" })(`OAuth authorization codes (${name})`, (it) => {
    it.effect("code with PKCE → tokens → a principal with the granted scopes; secrets are stored hashed", () =>
      Effect.gen(function* () {
        const oauth = yield* OAuth
        const { team, owner } = yield* newTeam
        const { application, clientSecret } = yield* registerPublic()
        assert.isNull(clientSecret)
        assert.match(application.clientId, /^mid_client_/)
        assert.strictEqual(application.status, "draft")
        assert.isNull(application.teamId)
        const code = yield* authorize(application.clientId, owner.id, team.id)
        const tokens = yield* oauth.exchangeCode(
          { clientId: application.clientId, clientSecret: undefined },
          { code, redirectUri: REDIRECT, codeVerifier: VERIFIER }
        )
        assert.match(tokens.accessToken, /^mid_access_token_/)
        assert.match(tokens.refreshToken, /^mid_refresh_token_/)
        assert.strictEqual(tokens.expiresIn, 7200)
        assert.strictEqual(tokens.scope, "users.read teams.read")
        const principal = yield* principalOf(tokens.accessToken)
        assert.deepStrictEqual(Option.getOrThrow(principal), {
          kind: "oauth",
          userId: owner.id,
          teamId: team.id,
          role: "owner",
          scopes: ["users.read", "teams.read"],
          credentialId: Option.getOrThrow(principal).credentialId
        })
        assert.isTrue(Option.isNone(yield* oauth.accessToken(`${tokens.accessToken}x`)))
        assert.isTrue(Option.isNone(yield* principalOf(tokens.refreshToken)), "a refresh token is not a credential")
        const claimed = yield* oauth.consent({
          responseType: "code",
          clientId: application.clientId,
          redirectUri: REDIRECT,
          scope: "users.read",
          state: "x",
          codeChallenge: yield* s256Challenge(VERIFIER),
          codeChallengeMethod: "S256"
        })
        assert.strictEqual(claimed.application.teamId, team.id, "the first authorization gives the app to the team")
      })
    )

    it.effect("a code is single use: reuse fails and revokes every token issued from it", () =>
      Effect.gen(function* () {
        const oauth = yield* OAuth
        const { team, owner } = yield* newTeam
        const { application } = yield* registerPublic()
        const code = yield* authorize(application.clientId, owner.id, team.id)
        const client = { clientId: application.clientId, clientSecret: undefined }
        const input = { code, redirectUri: REDIRECT, codeVerifier: VERIFIER }
        const tokens = yield* oauth.exchangeCode(client, input)
        assert.strictEqual(yield* failureOf(oauth.exchangeCode(client, input)), "invalid_grant")
        assert.isTrue(Option.isNone(yield* principalOf(tokens.accessToken)))
        assert.strictEqual(
          yield* failureOf(oauth.refresh(client, { refreshToken: tokens.refreshToken, scope: undefined })),
          "invalid_grant"
        )
      })
    )

    it.effect("two concurrent exchanges of one code: exactly one gets tokens, and those are revoked", () =>
      Effect.gen(function* () {
        const oauth = yield* OAuth
        const { team, owner } = yield* newTeam
        const { application } = yield* registerPublic()
        const code = yield* authorize(application.clientId, owner.id, team.id)
        const client = { clientId: application.clientId, clientSecret: undefined }
        const input = { code, redirectUri: REDIRECT, codeVerifier: VERIFIER }
        const results = yield* Effect.all(
          [Effect.result(oauth.exchangeCode(client, input)), Effect.result(oauth.exchangeCode(client, input))],
          { concurrency: 2 }
        )
        const wins = results.filter((r) => r._tag === "Success")
        assert.strictEqual(wins.length, 1)
        const win = wins[0]!
        if (win._tag === "Success") assert.isTrue(Option.isNone(yield* principalOf(win.success.accessToken)))
      })
    )

    it.effect(
      "PKCE: a wrong or missing verifier fails without burning the code; a verifier without a challenge fails",
      () =>
        Effect.gen(function* () {
          const oauth = yield* OAuth
          const { team, owner } = yield* newTeam
          const { application } = yield* registerPublic()
          const client = { clientId: application.clientId, clientSecret: undefined }
          const code = yield* authorize(application.clientId, owner.id, team.id)
          const wrong = `${VERIFIER.slice(0, -1)}H`
          assert.strictEqual(
            yield* failureOf(oauth.exchangeCode(client, { code, redirectUri: REDIRECT, codeVerifier: wrong })),
            "invalid_grant"
          )
          assert.strictEqual(
            yield* failureOf(oauth.exchangeCode(client, { code, redirectUri: REDIRECT, codeVerifier: undefined })),
            "invalid_grant"
          )
          assert.strictEqual(
            yield* failureOf(oauth.exchangeCode(client, { code, redirectUri: REDIRECT, codeVerifier: "short" })),
            "invalid_request"
          )
          yield* oauth.exchangeCode(client, { code, redirectUri: REDIRECT, codeVerifier: VERIFIER })

          const confidential = yield* oauth.register({
            clientName: "Server app",
            redirectUris: [REDIRECT],
            tokenEndpointAuthMethod: "client_secret_basic"
          })
          const secretClient = { clientId: confidential.application.clientId, clientSecret: confidential.clientSecret! }
          const noChallenge = yield* authorize(confidential.application.clientId, owner.id, team.id, { verifier: null })
          assert.strictEqual(
            yield* failureOf(
              oauth.exchangeCode(secretClient, { code: noChallenge, redirectUri: REDIRECT, codeVerifier: VERIFIER })
            ),
            "invalid_grant"
          )
          yield* oauth.exchangeCode(secretClient, { code: noChallenge, redirectUri: REDIRECT, codeVerifier: undefined })
        })
    )

    it.effect("public clients must send a code_challenge; codes expire after 5 minutes; redirect URIs must match", () =>
      Effect.gen(function* () {
        const oauth = yield* OAuth
        const { team, owner } = yield* newTeam
        const { application } = yield* registerPublic()
        const client = { clientId: application.clientId, clientSecret: undefined }
        const noPkce = yield* oauthFailure(authorize(application.clientId, owner.id, team.id, { verifier: null }))
        assert.deepStrictEqual([noPkce.error, noPkce.redirectable], ["invalid_request", true])
        const elsewhere = yield* oauthFailure(
          oauth.decide(owner.id, {
            clientId: application.clientId,
            decision: "allow",
            scopes: ["users.read"],
            redirectUri: "https://evil.example.com/cb",
            teamId: team.id,
            codeChallenge: yield* s256Challenge(VERIFIER)
          })
        )
        assert.deepStrictEqual([elsewhere.error, elsewhere.redirectable], ["invalid_request", false])

        const code = yield* authorize(application.clientId, owner.id, team.id)
        assert.strictEqual(
          yield* failureOf(
            oauth.exchangeCode(client, { code, redirectUri: "http://127.0.0.1:8976/other", codeVerifier: VERIFIER })
          ),
          "invalid_grant"
        )
        yield* TestClock.adjust("5 minutes")
        assert.strictEqual(
          yield* failureOf(oauth.exchangeCode(client, { code, redirectUri: REDIRECT, codeVerifier: VERIFIER })),
          "invalid_grant"
        )
      })
    )

    it.effect("confidential clients: the secret is shown once, stored hashed, and checked", () =>
      Effect.gen(function* () {
        const oauth = yield* OAuth
        const { team, owner } = yield* newTeam
        const { application, clientSecret } = yield* oauth.register({
          clientName: "Server app",
          redirectUris: [REDIRECT],
          tokenEndpointAuthMethod: "client_secret_post",
          scope: "users.read transactions.read"
        })
        assert.match(clientSecret!, /^mid_client_secret_/)
        assert.strictEqual(application.clientSecretHash, yield* hashSecret(clientSecret!))
        const code = yield* authorize(application.clientId, owner.id, team.id, { scopes: ["users.read"] })
        const input = { code, redirectUri: REDIRECT, codeVerifier: VERIFIER }
        for (const secret of [undefined, "mid_client_secret_wrong", `${clientSecret}x`]) {
          assert.strictEqual(
            yield* failureOf(oauth.exchangeCode({ clientId: application.clientId, clientSecret: secret }, input)),
            "invalid_client"
          )
        }
        yield* oauth.exchangeCode({ clientId: application.clientId, clientSecret: clientSecret! }, input)
        const beyond = yield* oauthFailure(
          authorize(application.clientId, owner.id, team.id, { scopes: ["users.read", "teams.read"] })
        )
        assert.deepStrictEqual([beyond.error, beyond.redirectable], ["invalid_scope", true])
      })
    )

    it.effect("an application belongs to the first team that authorizes it; other teams are refused", () =>
      Effect.gen(function* () {
        const first = yield* newTeam
        const second = yield* newTeam
        const { application } = yield* registerPublic()
        yield* authorize(application.clientId, first.owner.id, first.team.id)
        const refused = yield* oauthFailure(authorize(application.clientId, second.owner.id, second.team.id))
        assert.strictEqual(refused.error, "unauthorized_client")
        const notMember = yield* oauthFailure(authorize(application.clientId, second.owner.id, first.team.id))
        assert.strictEqual(notMember.error, "access_denied")
      })
    )
  })

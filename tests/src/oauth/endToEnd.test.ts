import { createServer } from "node:http"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Exit, Layer, Scope } from "effect"
import { HttpRouter } from "effect/http"
import * as oauth from "oauth4webapi"
import { afterAll, assert, beforeAll, it } from "vitest"
import { appWith, sessionFor } from "../support/OAuthHarness.ts"
import { freePort } from "../support/Processes.ts"

const REDIRECT = "http://127.0.0.1:53682/callback"
const insecure = { [oauth.allowInsecureRequests]: true } as const

let base: string
let scope: Scope.Closeable

beforeAll(async () => {
  const port = await freePort()
  base = `http://127.0.0.1:${port}`
  scope = await Effect.runPromise(Scope.make())
  const server = HttpRouter.serve(appWith(100_000, base), { disableListenLog: true, disableLogger: true }).pipe(
    Layer.provide(NodeHttpServer.layer(createServer, { port, host: "127.0.0.1" }))
  )
  await Effect.runPromise(Layer.buildWithScope(server, scope))
})

afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

const json = async (path: string, init: RequestInit = {}) => {
  const response = await fetch(`${base}${path}`, init)
  return { status: response.status, body: await response.json() }
}

it("a standards-conforming client completes discovery, registration, PKCE, refresh and revocation", async () => {
  const issuer = new URL(base)
  const as = await oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...insecure })
  )
  assert.deepStrictEqual(as.code_challenge_methods_supported, ["S256"])
  const resource = await oauth.processResourceDiscoveryResponse(
    issuer,
    await oauth.resourceDiscoveryRequest(issuer, insecure)
  )
  assert.deepStrictEqual(resource.authorization_servers, [base])

  const client = await oauth.processDynamicClientRegistrationResponse(
    await oauth.dynamicClientRegistrationRequest(
      as,
      {
        client_name: "oauth4webapi e2e",
        redirect_uris: [REDIRECT],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
        scope: "users.read teams.read"
      },
      insecure
    )
  )
  assert.match(client.client_id, /^mid_client_/)

  const userId = crypto.randomUUID()
  const session = await sessionFor(userId, "e2e@example.com")
  const team = await json("/teams", {
    method: "POST",
    headers: { authorization: `Bearer ${session}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "E2E" })
  })
  assert.strictEqual(team.status, 201)

  const verifier = oauth.generateRandomCodeVerifier()
  const challenge = await oauth.calculatePKCECodeChallenge(verifier)
  const state = oauth.generateRandomState()
  const authorizationUrl = new URL(as.authorization_endpoint!)
  for (const [name, value] of Object.entries({
    response_type: "code",
    client_id: client.client_id,
    redirect_uri: REDIRECT,
    scope: "users.read teams.read",
    state,
    code_challenge: challenge,
    code_challenge_method: "S256",
    resource: base
  })) {
    authorizationUrl.searchParams.set(name, value)
  }
  const consentResponse = await fetch(authorizationUrl)
  assert.strictEqual(consentResponse.status, 200)
  const consent = await consentResponse.json()
  assert.strictEqual(consent.clientId, client.client_id)
  assert.deepStrictEqual(consent.scopes, ["users.read", "teams.read"])

  const decision = await json("/oauth/authorize", {
    method: "POST",
    headers: { authorization: `Bearer ${session}`, "content-type": "application/json" },
    body: JSON.stringify({
      client_id: client.client_id,
      decision: "allow",
      scopes: consent.scopes,
      redirect_uri: REDIRECT,
      state,
      code_challenge: challenge,
      teamId: team.body.id
    })
  })
  assert.strictEqual(decision.status, 200)
  const callback = oauth.validateAuthResponse(as, client, new URL(decision.body.redirect_url), state)

  const tokens = await oauth.processAuthorizationCodeResponse(
    as,
    client,
    await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), callback, REDIRECT, verifier, insecure)
  )
  assert.match(tokens.access_token, /^mid_access_token_/)
  assert.strictEqual(tokens.token_type, "bearer")
  assert.strictEqual(tokens.expires_in, 7200)

  const me = await oauth.protectedResourceRequest(
    tokens.access_token,
    "GET",
    new URL(`${base}/users/me`),
    undefined,
    undefined,
    insecure
  )
  assert.strictEqual(me.status, 200)
  const user = await me.json()
  assert.strictEqual(user.id, userId)
  assert.strictEqual(user.teamId, team.body.id)

  const refreshed = await oauth.processRefreshTokenResponse(
    as,
    client,
    await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, insecure)
  )
  assert.notStrictEqual(refreshed.refresh_token, tokens.refresh_token)

  await oauth.processRevocationResponse(
    await oauth.revocationRequest(as, client, oauth.None(), refreshed.access_token, insecure)
  )

  const refused = await oauth
    .protectedResourceRequest(
      refreshed.access_token,
      "GET",
      new URL(`${base}/users/me`),
      undefined,
      undefined,
      insecure
    )
    .then(
      (response) => response.status,
      (error: unknown) => {
        assert.instanceOf(error, oauth.WWWAuthenticateChallengeError)
        return (error as oauth.WWWAuthenticateChallengeError).response.status
      }
    )
  assert.strictEqual(refused, 401)

  const reuse = await oauth
    .processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, insecure)
    )
    .then(
      () => "accepted",
      (error: unknown) => (error instanceof oauth.ResponseBodyError ? error.error : String(error))
    )
  assert.strictEqual(reuse, "invalid_grant", "the rotated refresh token is dead")
})

import { assert, describe, it } from "vitest"
import { assertOAuthError, oauthFlows, REDIRECT } from "../support/OAuthFlows.ts"
import { BASE, pkce } from "../support/OAuthHarness.ts"

const { app, signedInWithTeam, register, decide, granted } = oauthFlows()

describe("GET /oauth/authorize (consent information)", () => {
  it("shows the application's public fields and the requested scopes, and never anything internal", async () => {
    const client = await register({ logo_uri: "https://example.com/logo.png", client_uri: "https://example.com" })
    const { challenge } = await pkce()
    const query = new URLSearchParams({
      response_type: "code",
      client_id: client.client_id,
      redirect_uri: REDIRECT,
      scope: "users.read teams.read",
      state: "xyz",
      code_challenge: challenge,
      code_challenge_method: "S256",
      resource: BASE
    })
    const reply = await app.call("GET", `/oauth/authorize?${query}`)
    assert.strictEqual(reply.status, 200, JSON.stringify(reply.body))
    assert.deepStrictEqual(Object.keys(reply.body).toSorted(), [
      "clientId",
      "description",
      "developerName",
      "id",
      "installUrl",
      "logoUrl",
      "name",
      "overview",
      "redirectUri",
      "scopes",
      "screenshots",
      "state",
      "status",
      "website"
    ])
    assert.strictEqual(reply.body.clientId, client.client_id)
    assert.deepStrictEqual(reply.body.scopes, ["users.read", "teams.read"])
    assert.strictEqual(reply.body.status, "draft")
    assert.strictEqual(reply.body.logoUrl, "https://example.com/logo.png")
  })

  it("answers errors as 400 JSON, never a redirect, echoing state", async () => {
    const client = await register({ scope: "users.read" })
    const { challenge } = await pkce()
    const base = {
      response_type: "code",
      client_id: client.client_id,
      redirect_uri: REDIRECT,
      scope: "users.read",
      state: "st",
      code_challenge: challenge,
      code_challenge_method: "S256"
    }
    const cases: Array<[Record<string, string>, string]> = [
      [{ client_id: "mid_client_unknown" }, "invalid_request"],
      [{ redirect_uri: "http://127.0.0.1:7777/callback/" }, "invalid_request"],
      [{ redirect_uri: "https://evil.example.com/cb" }, "invalid_request"],
      [{ response_type: "token" }, "unsupported_response_type"],
      [{ scope: "users.read users.admin" }, "invalid_scope"],
      [{ scope: "teams.read" }, "invalid_scope"],
      [{ scope: "apis.all" }, "invalid_scope"],
      [{ code_challenge_method: "plain" }, "invalid_request"],
      [{ code_challenge: "short" }, "invalid_request"],
      [{ resource: "https://other.example.com" }, "invalid_target"]
    ]
    for (const [override, error] of cases) {
      const reply = await app.call("GET", `/oauth/authorize?${new URLSearchParams({ ...base, ...override })}`)
      assertOAuthError(reply, 400, error)
      assert.strictEqual(reply.body.state, "st")
      assert.isNull(reply.headers.get("location"))
    }
    const { code_challenge: _c, code_challenge_method: _m, ...noPkce } = base
    assertOAuthError(await app.call("GET", `/oauth/authorize?${new URLSearchParams(noPkce)}`), 400, "invalid_request")
    const { state: _s, ...noState } = base
    const missingState = await app.call("GET", `/oauth/authorize?${new URLSearchParams(noState)}`)
    assertOAuthError(missingState, 400, "invalid_request")
    assert.match(missingState.body.error_description, /state/)
  })
})

describe("POST /oauth/authorize (the decision)", () => {
  it("allow answers a redirect_url with code, state and iss; deny answers access_denied", async () => {
    const user = await signedInWithTeam()
    const client = await register()
    const { challenge } = await pkce()
    const body = {
      client_id: client.client_id,
      decision: "allow",
      scopes: ["users.read", "compliance.read"],
      redirect_uri: REDIRECT,
      state: "st-9",
      code_challenge: challenge,
      teamId: user.teamId
    }
    const allowed = await decide(user.token, body)
    assert.strictEqual(allowed.status, 200, JSON.stringify(allowed.body))
    const url = new URL(allowed.body.redirect_url)
    assert.strictEqual(`${url.origin}${url.pathname}`, REDIRECT)
    assert.match(url.searchParams.get("code")!, /^mid_code_/)
    assert.strictEqual(url.searchParams.get("state"), "st-9")
    assert.strictEqual(url.searchParams.get("iss"), BASE)

    const denied = await decide(user.token, { ...body, decision: "deny" })
    assert.strictEqual(denied.status, 200)
    const deniedUrl = new URL(denied.body.redirect_url)
    assert.strictEqual(deniedUrl.searchParams.get("error"), "access_denied")
    assert.strictEqual(deniedUrl.searchParams.get("state"), "st-9")
    assert.isNull(deniedUrl.searchParams.get("code"))
  })

  it("needs a session: none, an API key or an OAuth token are 401", async () => {
    const { tokens } = await granted()
    const body = {
      client_id: "x",
      decision: "allow",
      scopes: ["users.read"],
      redirect_uri: REDIRECT,
      teamId: crypto.randomUUID()
    }
    assert.strictEqual((await app.call("POST", "/oauth/authorize", { json: body })).status, 401)
    assert.strictEqual((await decide(tokens.access_token, body)).status, 401)
  })

  it("errors after the client and redirect URI are verified go back in redirect_url; others never do", async () => {
    const user = await signedInWithTeam()
    const stranger = await signedInWithTeam()
    const client = await register({ scope: "users.read teams.read" })
    const { challenge } = await pkce()
    const body = {
      client_id: client.client_id,
      decision: "allow",
      scopes: ["users.read"],
      redirect_uri: REDIRECT,
      state: "st-2",
      code_challenge: challenge,
      teamId: user.teamId
    }
    const redirected: Array<[Record<string, unknown>, string]> = [
      [{ teamId: stranger.teamId }, "access_denied"],
      [{ scopes: ["users.read", "transactions.read"] }, "invalid_scope"],
      [{ scopes: [] }, "invalid_scope"],
      [{ code_challenge: undefined }, "invalid_request"],
      [{ code_challenge: "not-a-challenge" }, "invalid_request"]
    ]
    for (const [override, error] of redirected) {
      const reply = await decide(user.token, JSON.parse(JSON.stringify({ ...body, ...override })))
      assert.strictEqual(reply.status, 400, JSON.stringify(reply.body))
      const url = new URL(reply.body.redirect_url)
      assert.strictEqual(`${url.origin}${url.pathname}`, REDIRECT)
      assert.strictEqual(url.searchParams.get("error"), error)
      assert.isString(url.searchParams.get("error_description"))
      assert.strictEqual(url.searchParams.get("state"), "st-2")
    }
    for (const override of [{ client_id: "mid_client_unknown" }, { redirect_uri: "https://evil.example.com/cb" }]) {
      const reply = await decide(user.token, { ...body, ...override })
      assertOAuthError(reply, 400, "invalid_request")
      assert.isUndefined(reply.body.redirect_url)
    }
    const bad = await decide(user.token, { ...body, scopes: ["users.root"] })
    assertOAuthError(bad, 400, "invalid_request")
    assert.match(bad.body.error_description, /scopes/)
    const notUuid = await decide(user.token, { ...body, teamId: "team-1" })
    assertOAuthError(notUuid, 400, "invalid_request")
    assert.match(notUuid.body.error_description, /teamId/)
  })
})

import { afterAll, assert, beforeAll, describe, it } from "vitest"
import { BASE, inProcess, pkce, type Reply, sessionFor } from "../support/OAuthHarness.ts"

const REDIRECT = "http://127.0.0.1:7777/callback"

let app: ReturnType<typeof inProcess>
beforeAll(() => {
  app = inProcess()
})
afterAll(() => app.dispose())

const assertOAuthError = (reply: Reply, status: number, error: string) => {
  assert.strictEqual(reply.status, status, JSON.stringify(reply.body))
  assert.strictEqual(reply.body.error, error, JSON.stringify(reply.body))
  assert.isString(reply.body.error_description)
  assert.isUndefined(reply.body.code, "OAuth endpoints answer RFC 6749 bodies, not the generic one")
  assert.notMatch(JSON.stringify(reply.body), /stack|SELECT|INSERT|\.ts:\d+/u)
}

const signedInWithTeam = async () => {
  const userId = crypto.randomUUID()
  const token = await sessionFor(userId)
  const team = await app.call("POST", "/teams", { token, json: { name: "Acme" } })
  assert.strictEqual(team.status, 201)
  return { token, userId, teamId: team.body.id as string }
}

const register = async (overrides: Record<string, unknown> = {}) => {
  const reply = await app.call("POST", "/oauth/register", {
    json: { client_name: "Agent CLI", redirect_uris: [REDIRECT], ...overrides }
  })
  assert.strictEqual(reply.status, 201, JSON.stringify(reply.body))
  return reply.body as { client_id: string; client_secret?: string }
}

const decide = (token: string, body: Record<string, unknown>) =>
  app.call("POST", "/oauth/authorize", { token, json: body })

const authorize = async (
  clientId: string,
  user: { token: string; teamId: string },
  options: { scopes?: ReadonlyArray<string>; challenge?: string | null } = {}
) => {
  const challenge = options.challenge === undefined ? (await pkce()).challenge : options.challenge
  const reply = await decide(user.token, {
    client_id: clientId,
    decision: "allow",
    scopes: options.scopes ?? ["users.read", "teams.read"],
    redirect_uri: REDIRECT,
    state: "st-1",
    teamId: user.teamId,
    ...(challenge === null ? {} : { code_challenge: challenge })
  })
  assert.strictEqual(reply.status, 200, JSON.stringify(reply.body))
  return new URL(reply.body.redirect_url).searchParams.get("code")!
}

/** A public client with a live grant for a new user and team. */
const granted = async (scopes: ReadonlyArray<string> = ["users.read", "teams.read"]) => {
  const user = await signedInWithTeam()
  const client = await register()
  const { verifier, challenge } = await pkce()
  const code = await authorize(client.client_id, user, { scopes, challenge })
  const reply = await app.call("POST", "/oauth/token", {
    form: {
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
      client_id: client.client_id
    }
  })
  assert.strictEqual(reply.status, 200, JSON.stringify(reply.body))
  return {
    user,
    client,
    code,
    verifier,
    tokens: reply.body as { access_token: string; refresh_token: string; scope: string }
  }
}

describe("discovery", () => {
  it("serves RFC 8414 metadata with the configured issuer, S256 only, and the registration and revocation endpoints", async () => {
    const reply = await app.call("GET", "/.well-known/oauth-authorization-server")
    assert.strictEqual(reply.status, 200)
    assert.strictEqual(reply.body.issuer, BASE)
    assert.strictEqual(reply.body.token_endpoint, `${BASE}/oauth/token`)
    assert.strictEqual(reply.body.authorization_endpoint, `${BASE}/oauth/authorize`)
    assert.strictEqual(reply.body.registration_endpoint, `${BASE}/oauth/register`)
    assert.strictEqual(reply.body.revocation_endpoint, `${BASE}/oauth/revoke`)
    assert.deepStrictEqual(reply.body.code_challenge_methods_supported, ["S256"])
    assert.include(reply.body.scopes_supported, "transactions.read")
    assert.notInclude(reply.body.scopes_supported, "apis.all")
  })

  it("serves RFC 9728 protected resource metadata, referenced by the 401 challenge of protected routes", async () => {
    const reply = await app.call("GET", "/.well-known/oauth-protected-resource")
    assert.strictEqual(reply.status, 200)
    assert.strictEqual(reply.body.resource, BASE)
    assert.deepStrictEqual(reply.body.authorization_servers, [BASE])
    const denied = await app.call("GET", "/users/me")
    assert.strictEqual(denied.status, 401)
    assert.strictEqual(
      denied.headers.get("www-authenticate"),
      `Bearer resource_metadata="${BASE}/.well-known/oauth-protected-resource"`
    )
  })

  it("documents the OAuth endpoints in /openapi.json", async () => {
    const reply = await app.call("GET", "/openapi.json")
    for (const path of ["/oauth/register", "/oauth/authorize", "/oauth/token", "/oauth/revoke", "/api-keys"]) {
      assert.property(reply.body.paths, path)
    }
    assert.match(JSON.stringify(reply.body.paths["/oauth/token"]), /x-www-form-urlencoded/)
    assert.match(reply.body.paths["/oauth/token"].post.description, /refresh/)
  })
})

describe("POST /oauth/register", () => {
  it("registers a public client, ignoring unknown metadata; a confidential one gets its secret once", async () => {
    const reply = await app.call("POST", "/oauth/register", {
      json: {
        client_name: "MCP client",
        redirect_uris: [REDIRECT, "com.example.app:/cb"],
        software_id: "ignored",
        contacts: ["dev@example.com"],
        scope: "users.read transactions.read"
      }
    })
    assert.strictEqual(reply.status, 201, JSON.stringify(reply.body))
    assert.match(reply.body.client_id, /^mid_client_/)
    assert.deepStrictEqual(reply.body.grant_types, ["authorization_code", "refresh_token"])
    assert.strictEqual(reply.body.token_endpoint_auth_method, "none")
    assert.deepStrictEqual(reply.body.response_types, ["code"])
    assert.isUndefined(reply.body.client_secret)
    assert.strictEqual(reply.headers.get("cache-control"), "no-store")
    const confidential = await register({ token_endpoint_auth_method: "client_secret_basic" })
    assert.match(confidential.client_secret!, /^mid_client_secret_/)
  })

  it("refuses bad metadata with RFC 7591 errors naming the field", async () => {
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ client_name: "x", redirect_uris: ["http://example.com/cb"] }, "invalid_redirect_uri", /redirect_uris\[0\]/],
      [{ client_name: "x", redirect_uris: ["https://a.example/cb#f"] }, "invalid_redirect_uri", /fragment/],
      [{ client_name: "x", redirect_uris: ["javascript:alert(1)"] }, "invalid_redirect_uri", /not allowed/],
      [{ client_name: "x", redirect_uris: [] }, "invalid_client_metadata", /redirect_uris/],
      [{ redirect_uris: [REDIRECT] }, "invalid_client_metadata", /client_name/],
      [{ client_name: "", redirect_uris: [REDIRECT] }, "invalid_client_metadata", /client_name/],
      [{ client_name: "n".repeat(257), redirect_uris: [REDIRECT] }, "invalid_client_metadata", /client_name/],
      [
        { client_name: "x", redirect_uris: [REDIRECT], grant_types: ["password"] },
        "invalid_client_metadata",
        /grant_types/
      ],
      [{ client_name: "x", redirect_uris: [REDIRECT], scope: "users.read root" }, "invalid_client_metadata", /root/],
      [
        { client_name: "x", redirect_uris: [REDIRECT], token_endpoint_auth_method: "private_key_jwt" },
        "invalid_client_metadata",
        /token_endpoint_auth_method/
      ],
      [
        { client_name: "x", redirect_uris: [REDIRECT], response_types: ["token"] },
        "invalid_client_metadata",
        /response_types/
      ],
      [
        { client_name: "x", redirect_uris: [REDIRECT], logo_uri: "ftp://x/logo.png" },
        "invalid_client_metadata",
        /logo_uri/
      ]
    ]
    for (const [json, error, description] of cases) {
      const reply = await app.call("POST", "/oauth/register", { json })
      assertOAuthError(reply, 400, error)
      assert.match(reply.body.error_description, description)
    }
    assertOAuthError(
      await app.call("POST", "/oauth/register", { raw: "{not json", headers: { "content-type": "application/json" } }),
      400,
      "invalid_client_metadata"
    )
  })
})

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

describe("POST /oauth/token", () => {
  it("exchanges a code once (JSON or form); reusing it fails and revokes the tokens it gave", async () => {
    const user = await signedInWithTeam()
    const client = await register()
    const { verifier, challenge } = await pkce()
    const code = await authorize(client.client_id, user, { challenge })
    const body = {
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
      client_id: client.client_id
    }
    const first = await app.call("POST", "/oauth/token", { json: body })
    assert.strictEqual(first.status, 200, JSON.stringify(first.body))
    assert.strictEqual(first.body.token_type, "Bearer")
    assert.strictEqual(first.body.expires_in, 7200)
    assert.strictEqual(first.body.scope, "users.read teams.read")
    assert.strictEqual(first.headers.get("cache-control"), "no-store")
    assert.strictEqual((await app.call("GET", "/users/me", { token: first.body.access_token })).status, 200)

    assertOAuthError(await app.call("POST", "/oauth/token", { form: body }), 400, "invalid_grant")
    assert.strictEqual((await app.call("GET", "/users/me", { token: first.body.access_token })).status, 401)
    const refresh = await app.call("POST", "/oauth/token", {
      form: { grant_type: "refresh_token", refresh_token: first.body.refresh_token, client_id: client.client_id }
    })
    assertOAuthError(refresh, 400, "invalid_grant")
  })

  it("refuses a wrong or missing verifier, a mismatched redirect URI, and unknown grant types", async () => {
    const user = await signedInWithTeam()
    const client = await register()
    const { verifier, challenge } = await pkce()
    const code = await authorize(client.client_id, user, { challenge })
    const base = {
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
      client_id: client.client_id
    }
    const other = (await pkce()).verifier
    assertOAuthError(
      await app.call("POST", "/oauth/token", { form: { ...base, code_verifier: other } }),
      400,
      "invalid_grant"
    )
    const { code_verifier: _v, ...noVerifier } = base
    assertOAuthError(await app.call("POST", "/oauth/token", { form: noVerifier }), 400, "invalid_grant")
    assertOAuthError(
      await app.call("POST", "/oauth/token", { form: { ...base, code_verifier: "abc" } }),
      400,
      "invalid_request"
    )
    assertOAuthError(
      await app.call("POST", "/oauth/token", { form: { ...base, redirect_uri: "http://127.0.0.1:7777/other" } }),
      400,
      "invalid_grant"
    )
    assertOAuthError(
      await app.call("POST", "/oauth/token", { form: { ...base, grant_type: "password" } }),
      400,
      "unsupported_grant_type"
    )
    const { grant_type: _g, ...noGrant } = base
    assertOAuthError(await app.call("POST", "/oauth/token", { form: noGrant }), 400, "invalid_request")
    assertOAuthError(
      await app.call("POST", "/oauth/token", { form: { ...base, resource: "https://elsewhere.example" } }),
      400,
      "invalid_target"
    )
    assertOAuthError(
      await app.call("POST", "/oauth/token", { form: { ...base, code: "mid_code_forged" } }),
      400,
      "invalid_grant"
    )
    const ok = await app.call("POST", "/oauth/token", { form: { ...base, resource: BASE } })
    assert.strictEqual(ok.status, 200, "failed attempts did not burn the code")
    const noChallenge = await register({ token_endpoint_auth_method: "client_secret_post" })
    const plainCode = await authorize(noChallenge.client_id, user, { challenge: null })
    assertOAuthError(
      await app.call("POST", "/oauth/token", {
        form: {
          grant_type: "authorization_code",
          code: plainCode,
          redirect_uri: REDIRECT,
          code_verifier: verifier,
          client_id: noChallenge.client_id,
          client_secret: noChallenge.client_secret!
        }
      }),
      400,
      "invalid_grant"
    )
  })

  it("authenticates clients: unknown is 401 invalid_client; Basic works and failures carry a Basic challenge", async () => {
    const user = await signedInWithTeam()
    const client = await register({ token_endpoint_auth_method: "client_secret_basic" })
    const { verifier, challenge } = await pkce()
    const code = await authorize(client.client_id, user, { challenge })
    const form = { grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier }
    const basic = (id: string, secret: string) => ({
      authorization: `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`
    })
    assertOAuthError(
      await app.call("POST", "/oauth/token", { form: { ...form, client_id: "mid_client_nope" } }),
      401,
      "invalid_client"
    )
    assertOAuthError(
      await app.call("POST", "/oauth/token", { form: { ...form, client_id: client.client_id } }),
      401,
      "invalid_client"
    )
    const wrong = await app.call("POST", "/oauth/token", {
      form,
      headers: basic(client.client_id, "mid_client_secret_wrong")
    })
    assertOAuthError(wrong, 401, "invalid_client")
    assert.match(wrong.headers.get("www-authenticate") ?? "", /^Basic/)
    assertOAuthError(
      await app.call("POST", "/oauth/token", { form, headers: { authorization: "Basic %%%not-base64" } }),
      401,
      "invalid_client"
    )
    assertOAuthError(
      await app.call("POST", "/oauth/token", {
        form: { ...form, client_secret: client.client_secret! },
        headers: basic(client.client_id, client.client_secret!)
      }),
      400,
      "invalid_request"
    )
    const ok = await app.call("POST", "/oauth/token", { form, headers: basic(client.client_id, client.client_secret!) })
    assert.strictEqual(ok.status, 200, JSON.stringify(ok.body))
  })

  it("rotates refresh tokens; reusing a rotated one revokes the family; scope narrows but never widens", async () => {
    const { client, tokens } = await granted()
    const refresh = (refreshToken: string, scope?: string) =>
      app.call("POST", "/oauth/token", {
        json: {
          grant_type: "refresh_token",
          refresh_token: refreshToken,
          client_id: client.client_id,
          ...(scope === undefined ? {} : { scope })
        }
      })
    assertOAuthError(await refresh(tokens.refresh_token, "users.read transactions.read"), 400, "invalid_scope")
    const narrowed = await refresh(tokens.refresh_token, "teams.read")
    assert.strictEqual(narrowed.status, 200, JSON.stringify(narrowed.body))
    assert.strictEqual(narrowed.body.scope, "teams.read")
    const me = await app.call("GET", "/users/me", { token: narrowed.body.access_token })
    assert.strictEqual(me.status, 403)
    assert.strictEqual(me.body.error, "insufficient_scope")
    assert.match(me.body.message, /users\.read/)
    assert.strictEqual((await app.call("GET", "/teams", { token: narrowed.body.access_token })).status, 200)

    assertOAuthError(await refresh(tokens.refresh_token), 400, "invalid_grant")
    for (const token of [tokens.access_token, narrowed.body.access_token]) {
      assert.strictEqual((await app.call("GET", "/teams", { token })).status, 401, "the whole family is revoked")
    }
    assertOAuthError(await refresh(narrowed.body.refresh_token), 400, "invalid_grant")
  })
})

describe("POST /oauth/revoke", () => {
  it("revokes by JSON or form, answers success for unknown tokens, and a revoked token is refused", async () => {
    const { client, tokens } = await granted()
    const unknown = await app.call("POST", "/oauth/revoke", {
      json: { token: "mid_access_token_nope", client_id: client.client_id }
    })
    assert.strictEqual(unknown.status, 200)
    assert.deepStrictEqual(unknown.body, { success: true })
    const revoked = await app.call("POST", "/oauth/revoke", {
      form: { token: tokens.access_token, token_type_hint: "access_token", client_id: client.client_id }
    })
    assert.deepStrictEqual([revoked.status, revoked.body], [200, { success: true }])
    assert.strictEqual((await app.call("GET", "/users/me", { token: tokens.access_token })).status, 401)
    const again = await app.call("POST", "/oauth/token", {
      form: { grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: client.client_id }
    })
    assert.strictEqual(again.status, 200, "revoking an access token leaves the refresh token")
    await app.call("POST", "/oauth/revoke", { json: { token: again.body.refresh_token, client_id: client.client_id } })
    assert.strictEqual((await app.call("GET", "/users/me", { token: again.body.access_token })).status, 401)
    assertOAuthError(
      await app.call("POST", "/oauth/revoke", { json: { token: "x", client_id: "mid_client_nope" } }),
      401,
      "invalid_client"
    )
    assertOAuthError(
      await app.call("POST", "/oauth/revoke", { json: { client_id: client.client_id } }),
      400,
      "invalid_request"
    )
  })
})

describe("OAuth tokens on protected routes", () => {
  it("are refused on every /v1 route with 401, and accepted by scope on /treasury and GET /users/me", async () => {
    const { user, tokens } = await granted(["users.read", "accounts.read"])
    for (const path of ["/v1/accounts", "/v1/balance"]) {
      const reply = await app.call("GET", path, { token: tokens.access_token })
      assert.strictEqual(reply.status, 401, path)
    }
    const me = await app.call("GET", "/users/me", { token: tokens.access_token })
    assert.strictEqual(me.status, 200)
    assert.strictEqual(me.body.teamId, user.teamId)
    assert.strictEqual(me.body.id, user.userId)
    assert.strictEqual((await app.call("GET", "/treasury/accounts", { token: tokens.access_token })).status, 200)
    const ledger = await app.call("GET", "/treasury/ledger", { token: tokens.access_token })
    assert.strictEqual(ledger.status, 403)
    assert.strictEqual(ledger.body.error, "insufficient_scope")
    assert.match(ledger.body.message, /spend\.read/)
    assert.strictEqual(
      (await app.call("POST", "/api-keys", { token: tokens.access_token, json: { name: "k" } })).status,
      401
    )
  })
})

describe("generic API keys", () => {
  it("are created with a session, shown once, listed without the value, work on /users/me but not /treasury or /v1", async () => {
    const user = await signedInWithTeam()
    const created = await app.call("POST", "/api-keys", { token: user.token, json: { name: "Reporting" } })
    assert.strictEqual(created.status, 201, JSON.stringify(created.body))
    assert.match(created.body.secret, /^svcapi_/)
    assert.strictEqual(created.body.object, "api_key")
    assert.isNull(created.body.scopes)
    const list = await app.call("GET", "/api-keys", { token: user.token })
    assert.strictEqual(list.status, 200)
    assert.strictEqual(list.body.data.length, 1)
    assert.notInclude(JSON.stringify(list.body), created.body.secret)
    assert.isUndefined(list.body.data[0].secret)

    const key = created.body.secret as string
    const me = await app.call("GET", "/users/me", { token: key })
    assert.strictEqual(me.status, 200)
    assert.strictEqual(me.body.teamId, user.teamId)
    for (const [method, path] of [
      ["GET", "/treasury/accounts"],
      ["GET", "/v1/accounts"],
      ["POST", "/api-keys"],
      ["POST", "/teams"]
    ] as const) {
      const reply = await app.call(method, path, { token: key, ...(method === "POST" ? { json: { name: "x" } } : {}) })
      assert.strictEqual(reply.status, 401, `${method} ${path}`)
    }

    const revoked = await app.call("DELETE", `/api-keys/${created.body.id}`, { token: user.token })
    assert.strictEqual(revoked.status, 200)
    assert.isString(revoked.body.revokedAt)
    assert.strictEqual((await app.call("GET", "/users/me", { token: key })).status, 401)
  })

  it("carry their scopes: a key without users.read gets 403 naming it", async () => {
    const user = await signedInWithTeam()
    const created = await app.call("POST", "/api-keys", {
      token: user.token,
      json: { name: "Teams only", scopes: ["teams.read"] }
    })
    assert.deepStrictEqual(created.body.scopes, ["teams.read"])
    const me = await app.call("GET", "/users/me", { token: created.body.secret })
    assert.strictEqual(me.status, 403)
    assert.strictEqual(me.body.error, "insufficient_scope")
    assert.match(me.body.message, /users\.read/)
    assert.strictEqual((await app.call("GET", "/teams", { token: created.body.secret })).status, 200)
  })

  it("refuse bad input and other teams' keys", async () => {
    const user = await signedInWithTeam()
    const other = await signedInWithTeam()
    const bad = await app.call("POST", "/api-keys", { token: user.token, json: { name: "x", scopes: ["apis.all"] } })
    assert.strictEqual(bad.status, 400)
    assert.strictEqual(bad.body.error, "validation_failed")
    assert.strictEqual(bad.body.details[0].path, "scopes.0")
    assert.strictEqual((await app.call("POST", "/api-keys", { token: user.token, json: { name: "" } })).status, 400)
    assert.strictEqual((await app.call("POST", "/api-keys", { token: user.token, json: {} })).status, 400)
    const created = await app.call("POST", "/api-keys", { token: user.token, json: { name: "Mine" } })
    assert.strictEqual((await app.call("DELETE", `/api-keys/${created.body.id}`, { token: other.token })).status, 404)
    assert.strictEqual((await app.call("DELETE", "/api-keys/not-a-uuid", { token: user.token })).status, 400)
    assert.strictEqual((await app.call("GET", "/api-keys", { token: other.token })).body.data.length, 0)
    const teamless = await sessionFor()
    const noTeam = await app.call("POST", "/api-keys", { token: teamless, json: { name: "x" } })
    assert.deepStrictEqual([noTeam.status, noTeam.body.error], [403, "team_required"])
    assert.strictEqual((await app.call("GET", "/api-keys", { token: created.body.secret })).status, 401)
  })
})

describe("OAuth tokens on /treasury (CONTRACT.md: by scope)", () => {
  it("an app granted spend.write approves a pending spend request for its owner; spend.read alone cannot", async () => {
    const writer = await granted(["spend.read", "spend.write"])
    const owner = writer.user
    const key = await app.call("POST", "/treasury/spending-keys", {
      token: owner.token,
      json: { name: "agent", mode: "test", policy: { approvalThreshold: 100 } }
    })
    const agent = key.body.secret as string
    const idempotent = () => ({ "idempotency-key": crypto.randomUUID() })
    await app.call("POST", "/v1/test-helpers/deposits", {
      token: agent,
      json: { amount: 10_000, currency: "USD" },
      headers: idempotent()
    })
    const pending = await app.call("POST", "/v1/spend-requests", {
      token: agent,
      headers: idempotent(),
      json: { amount: 500, currency: "USD", merchant: { name: "Vendor" }, purpose: "needs a human" }
    })
    assert.strictEqual(pending.body.status, "pending_approval")
    const approvalId = pending.body.approval.id as string

    const queue = await app.call("GET", "/treasury/approvals?status=pending", { token: writer.tokens.access_token })
    assert.strictEqual(queue.status, 200)
    assert.deepStrictEqual(
      queue.body.data.map((a: { id: string }) => a.id),
      [approvalId]
    )

    const { verifier, challenge } = await pkce()
    const readOnlyCode = await authorize(writer.client.client_id, owner, { scopes: ["spend.read"], challenge })
    const readOnly = await app.call("POST", "/oauth/token", {
      form: {
        grant_type: "authorization_code",
        code: readOnlyCode,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
        client_id: writer.client.client_id
      }
    })
    const refused = await app.call("POST", `/treasury/approvals/${approvalId}/approve`, {
      token: readOnly.body.access_token,
      json: {}
    })
    assert.strictEqual(refused.status, 403)
    assert.strictEqual(refused.body.error, "insufficient_scope")
    assert.include(refused.body.message, "spend.write")

    const approved = await app.call("POST", `/treasury/approvals/${approvalId}/approve`, {
      token: writer.tokens.access_token,
      json: { note: "approved by the app" }
    })
    assert.strictEqual(approved.status, 200)
    assert.strictEqual(approved.body.spendRequest.status, "approved")
    assert.strictEqual(approved.body.decidedBy, owner.userId)
    assert.strictEqual((await app.call("GET", "/v1/spend-requests", { token: writer.tokens.access_token })).status, 401)
  })
})

import { assert, describe, it } from "vitest"
import { assertOAuthError, oauthFlows, REDIRECT } from "../support/OAuthFlows.ts"
import { BASE, pkce } from "../support/OAuthHarness.ts"

const { app, signedInWithTeam, register, authorize, granted } = oauthFlows()

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

import { assert, describe, it } from "vitest"
import { assertOAuthError, oauthFlows, REDIRECT } from "../support/OAuthFlows.ts"
import { BASE } from "../support/OAuthHarness.ts"

const { app, register } = oauthFlows()

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

  it("serves the path-suffixed metadata (RFC 9728 3.1) of /mcp, and 404 JSON for a path that is no resource", async () => {
    const mcp = await app.call("GET", "/.well-known/oauth-protected-resource/mcp")
    assert.strictEqual(mcp.status, 200, JSON.stringify(mcp.body))
    assert.strictEqual(mcp.body.resource, `${BASE}/mcp`)
    assert.deepStrictEqual(mcp.body.authorization_servers, [BASE])
    assert.deepStrictEqual(mcp.body.scopes_supported, ["spend.read", "spend.write", "accounts.read"])
    assert.deepStrictEqual(mcp.body.bearer_methods_supported, ["header"])
    for (const path of ["v1", "treasury", "constructor", "mcp/extra", "no/such/resource"]) {
      const unknown = await app.call("GET", `/.well-known/oauth-protected-resource/${path}`)
      assert.strictEqual(unknown.status, 404, `${path}: ${JSON.stringify(unknown.body)}`)
      assert.strictEqual(unknown.body.error, "not_found", path)
      assert.strictEqual(unknown.body.code, 404, path)
      assert.match(unknown.headers.get("content-type") ?? "", /application\/json/u, path)
    }
  })

  it("documents the OAuth endpoints in /openapi.json", async () => {
    const reply = await app.call("GET", "/openapi.json")
    for (const path of [
      "/oauth/register",
      "/oauth/authorize",
      "/oauth/token",
      "/oauth/revoke",
      "/api-keys",
      "/.well-known/oauth-protected-resource",
      "/.well-known/oauth-protected-resource/{resource}"
    ]) {
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

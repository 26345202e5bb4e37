import { assert, describe, it } from "@effect/vitest"
import { oauthFlows } from "../support/OAuthFlows.ts"

const { app, granted } = oauthFlows()

const spendBody = { amount: 100, currency: "USD", merchant: { name: "OpenAI" }, purpose: "tokens" }

describe("an OAuth access token on /v1", () => {
  it("acts by its scopes through one live team key of its app, and revoking that key ends its /v1 access", async () => {
    const { user, tokens } = await granted(["spend.read", "accounts.read"])
    const token = tokens.access_token

    const balance = await app.call("GET", "/v1/balance", { token })
    assert.strictEqual(balance.status, 200, JSON.stringify(balance.body))
    assert.strictEqual((await app.call("GET", "/v1/spend-requests", { token })).status, 200)
    const refused = await app.call("POST", "/v1/spend-requests", {
      token,
      json: spendBody,
      headers: { "idempotency-key": crypto.randomUUID() }
    })
    assert.strictEqual(refused.status, 403, JSON.stringify(refused.body))
    assert.strictEqual(refused.body.error, "insufficient_scope")

    const keys = await app.call("GET", "/treasury/team-api-keys", { token: user.token })
    const appKeys = keys.body.data.filter((k: { name: string }) => k.name.startsWith("OAuth app "))
    assert.strictEqual(appKeys.length, 1, "every call of the app goes through the same key")
    assert.strictEqual(appKeys[0].mode, "live")

    const revoked = await app.call("DELETE", `/treasury/team-api-keys/${appKeys[0].id}`, { token: user.token })
    assert.strictEqual(revoked.status, 200, JSON.stringify(revoked.body))
    assert.strictEqual((await app.call("GET", "/v1/balance", { token })).status, 401)
  })

  it("revoking any key of the app ends its /v1 access, even when simultaneous first calls issued several", async () => {
    const { user, tokens } = await granted(["spend.read", "accounts.read"])
    const token = tokens.access_token
    const first = await Promise.all(Array.from({ length: 6 }, () => app.call("GET", "/v1/balance", { token })))
    assert.deepStrictEqual(
      first.map((r) => r.status),
      Array.from({ length: 6 }, () => 200)
    )
    const keys = await app.call("GET", "/treasury/team-api-keys", { token: user.token })
    const appKeys = keys.body.data.filter((k: { name: string }) => k.name.startsWith("OAuth app "))
    assert.isAtLeast(appKeys.length, 1)
    const oldest = appKeys.at(-1)
    const revoked = await app.call("DELETE", `/treasury/team-api-keys/${oldest.id}`, { token: user.token })
    assert.strictEqual(revoked.status, 200, JSON.stringify(revoked.body))
    assert.strictEqual((await app.call("GET", "/v1/balance", { token })).status, 401)
    const after = await app.call("GET", "/treasury/team-api-keys", { token: user.token })
    assert.strictEqual(
      after.body.data.filter((k: { name: string }) => k.name.startsWith("OAuth app ")).length,
      appKeys.length,
      "no new key is issued for an app whose key was revoked"
    )
  })

  it("an unknown or revoked access token gets 401", async () => {
    const unknown = await app.call("GET", "/v1/balance", { token: "mid_access_token_unknown" })
    assert.strictEqual(unknown.status, 401)
    const { client, tokens } = await granted(["spend.read", "accounts.read"])
    const revoked = await app.call("POST", "/oauth/revoke", {
      form: { token: tokens.access_token, client_id: client.client_id }
    })
    assert.strictEqual(revoked.status, 200, JSON.stringify(revoked.body))
    assert.strictEqual((await app.call("GET", "/v1/balance", { token: tokens.access_token })).status, 401)
  })
})

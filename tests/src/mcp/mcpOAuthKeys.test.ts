import { assert, describe, it } from "@effect/vitest"
import { oauthFlows } from "../support/OAuthFlows.ts"

const { app, granted } = oauthFlows()

/** A bare POST to /mcp as `token`: 401 when the gate refuses the credential, something else once it is admitted. */
const postMcp = (token: string) =>
  app.call("POST", "/mcp", {
    token,
    json: { jsonrpc: "2.0", id: 1, method: "ping" },
    headers: { accept: "application/json, text/event-stream" }
  })

const appKeysOf = async (session: string) => {
  const keys = await app.call("GET", "/treasury/team-api-keys", { token: session })
  assert.strictEqual(keys.status, 200, JSON.stringify(keys.body))
  return keys.body.data.filter((k: { name: string }) => k.name.startsWith("OAuth app ")) as Array<{ id: string }>
}

describe("the app key an OAuth token's MCP tool calls act as", () => {
  it("revoking any key of the app ends its tool calls, even when simultaneous first calls issued several", async () => {
    const { user, tokens } = await granted(["spend.read", "accounts.read"])
    const token = tokens.access_token
    const first = await Promise.all(Array.from({ length: 6 }, () => postMcp(token)))
    for (const reply of first) assert.notStrictEqual(reply.status, 401, JSON.stringify(reply.body))
    const keys = await appKeysOf(user.token)
    assert.isAtLeast(keys.length, 1)
    const oldest = keys.at(-1)!
    const revoked = await app.call("DELETE", `/treasury/team-api-keys/${oldest.id}`, { token: user.token })
    assert.strictEqual(revoked.status, 200, JSON.stringify(revoked.body))
    const refused = await postMcp(token)
    assert.strictEqual(refused.status, 401, JSON.stringify(refused.body))
    assert.strictEqual((await appKeysOf(user.token)).length, keys.length, "no new key for an app whose key was revoked")
  })

  it("a revoked or unknown access token is not admitted at /mcp", async () => {
    assert.strictEqual((await postMcp("mid_access_token_unknown")).status, 401)
    const { client, tokens } = await granted(["spend.read", "accounts.read"])
    assert.notStrictEqual((await postMcp(tokens.access_token)).status, 401)
    const revoked = await app.call("POST", "/oauth/revoke", {
      form: { token: tokens.access_token, client_id: client.client_id }
    })
    assert.strictEqual(revoked.status, 200, JSON.stringify(revoked.body))
    assert.strictEqual((await postMcp(tokens.access_token)).status, 401)
  })
})

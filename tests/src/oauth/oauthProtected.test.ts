import { assert, describe, it } from "vitest"
import { oauthFlows, REDIRECT } from "../support/OAuthFlows.ts"
import { pkce, sessionFor } from "../support/OAuthHarness.ts"

const { app, signedInWithTeam, authorize, granted } = oauthFlows()

describe("OAuth tokens on protected routes", () => {
  it("are accepted by scope on /treasury and GET /users/me, and refused on /v1 (an agent-key surface)", async () => {
    const { user, tokens } = await granted(["users.read", "accounts.read"])
    for (const path of ["/v1/accounts", "/v1/balance", "/v1/spend-requests"]) {
      const reply = await app.call("GET", path, { token: tokens.access_token })
      assert.deepStrictEqual([reply.status, reply.body.error], [401, "unauthorized"], path)
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
    for (const path of ["/treasury/activity", "/treasury/spend-stats", `/treasury/activity/transfer/${user.userId}`]) {
      const refused = await app.call("GET", path, { token: tokens.access_token })
      assert.deepStrictEqual([refused.status, refused.body.error], [403, "insufficient_scope"], path)
    }
    const reader = await granted(["spend.read"])
    const activity = await app.call("GET", "/treasury/activity", { token: reader.tokens.access_token })
    assert.deepStrictEqual([activity.status, activity.body.data], [200, []])
    const stats = await app.call("GET", "/treasury/spend-stats", { token: reader.tokens.access_token })
    assert.deepStrictEqual([stats.status, stats.body.object], [200, "spend_stats"])
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
    assert.deepStrictEqual([approved.body.subjectType, approved.body.subject.status], ["spend_request", "approved"])
    assert.strictEqual(approved.body.decidedBy, owner.userId)
    const onV1 = await app.call("GET", "/v1/spend-requests", { token: writer.tokens.access_token })
    assert.strictEqual(onV1.status, 401, "approving on /treasury makes no /v1 credential of the token")
  })
})

import { assert, describe, it } from "@effect/vitest"
import { sessionToken } from "../support/InProcessApp.ts"
import { acmeApp, spendBody } from "./SpendHttpSetup.ts"

const { app, acme, create } = acmeApp()

describe("spending keys", () => {
  it("are returned once with their prefix and never listed with the secret", async () => {
    assert.match(acme.testKey, /^svc_test_/)
    assert.match(acme.liveKey, /^svc_(?!test_)/)
    const list = await app.call("GET", "/treasury/spending-keys", { token: acme.owner })
    assert.strictEqual(list.status, 200)
    assert.isTrue(list.body.data.every((k: Record<string, unknown>) => !("secret" in k)))
    assert.isFalse(JSON.stringify(list.body).includes(acme.testKey))
  })

  it("are refused for a member who is not owner or admin, and for a user without a team", async () => {
    const stranger = await sessionToken()
    const answer = await app.call("GET", "/treasury/spending-keys", { token: stranger })
    assert.strictEqual(answer.status, 403)
    assert.strictEqual(answer.body.error, "team_required")
  })

  it("reject an invalid policy naming each field", async () => {
    const answer = await app.call("POST", "/treasury/spending-keys", {
      token: acme.owner,
      body: {
        name: "",
        mode: "sandbox",
        policy: { perRequestLimit: -1, allowedCategories: ["Bad Slug"], approvalTtlSeconds: 1 }
      }
    })
    assert.strictEqual(answer.status, 400)
    const paths = [...new Set(answer.body.details.map((d: { path: string }) => d.path))].toSorted()
    assert.deepStrictEqual(paths, [
      "mode",
      "name",
      "policy.allowedCategories.0",
      "policy.approvalTtlSeconds",
      "policy.perRequestLimit"
    ])
  })
})

describe("credentials on /v1", () => {
  it("team API keys act by scope: a missing scope is 403 insufficient_scope naming it", async () => {
    const readOnly = (
      await app.call("POST", "/treasury/team-api-keys", {
        token: acme.owner,
        body: { name: "ro", mode: "test", scopes: ["spend.read"] }
      })
    ).body
    assert.match(readOnly.secret, /^svcteam_/)
    assert.strictEqual((await app.call("GET", "/v1/spend-requests", { token: readOnly.secret })).status, 200)
    const denied = await create(readOnly.secret, spendBody(100))
    assert.strictEqual(denied.status, 403)
    assert.strictEqual(denied.body.error, "insufficient_scope")
    assert.include(denied.body.message, "spend.write")
    assert.strictEqual((await app.call("GET", "/v1/accounts", { token: readOnly.secret })).status, 403)
  })

  it("a revoked key is refused on the next request; sessions are refused on /v1", async () => {
    const key = (
      await app.call("POST", "/treasury/spending-keys", {
        token: acme.owner,
        body: { name: "tmp", mode: "test", policy: {} }
      })
    ).body
    assert.strictEqual((await app.call("GET", "/v1/balance", { token: key.secret })).status, 200)
    assert.strictEqual(
      (await app.call("DELETE", `/treasury/spending-keys/${key.id}`, { token: acme.owner })).status,
      200
    )
    const after = await app.call("GET", "/v1/balance", { token: key.secret })
    assert.strictEqual(after.status, 401)
    assert.strictEqual(after.headers.get("www-authenticate"), "Bearer")
    assert.strictEqual((await app.call("GET", "/v1/spend-requests", { token: acme.owner })).status, 401)
    assert.strictEqual(
      (await app.call("DELETE", `/treasury/spending-keys/${key.id}`, { token: acme.owner })).status,
      404
    )
  })

  it("a key's new policy decides its next request", async () => {
    assert.strictEqual(
      (
        await app.call("PATCH", `/treasury/spending-keys/${acme.keyId}`, {
          token: acme.owner,
          body: { policy: { blockedCategories: ["software"] } }
        })
      ).status,
      200
    )
    const answer = await create(acme.testKey, spendBody(100))
    assert.deepStrictEqual(
      answer.body.decision.reasons.map((r: { code: string }) => r.code),
      ["category_blocked"]
    )
    await app.call("PATCH", `/treasury/spending-keys/${acme.keyId}`, {
      token: acme.owner,
      body: { policy: { approvalThreshold: 5_000, perRequestLimit: 50_000 } }
    })
  })
})

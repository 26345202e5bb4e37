import { assert, describe, it } from "@effect/vitest"
import { createClient } from "@svc/sdk"
import { failureOf } from "../support/LoopbackServer.ts"
import { databaseName, sdkServerOnDatabase, sdkTeam } from "../support/SdkServer.ts"

const app = sdkServerOnDatabase()

describe(`the SDK's keys, OAuth applications, webhook endpoints and system routes (${databaseName})`, () => {
  it("answers health and readiness on the database", async () => {
    const anyone = createClient({ baseUrl: app.baseUrl(), token: "none" })
    assert.deepStrictEqual(await anyone.system.health(), { status: "ok" })
    assert.strictEqual((await anyone.system.ready()).status, "ready")
  })

  it("changes a spending key's policy, lists its versions and keys, and a revoked key is refused", async () => {
    const { owner, agent, keyId } = await sdkTeam(app.baseUrl(), { funds: 1_000 })
    const updated = await owner.agentKeys.updateSpendingKey({
      params: { id: keyId },
      payload: { policy: { perRequestLimit: 500 } }
    })
    assert.strictEqual(updated.id, keyId)
    const versions = await owner.agentKeys.listPolicyVersions({ params: { id: keyId }, query: {} })
    assert.deepStrictEqual(
      versions.data.map((v) => v.version),
      [2, 1]
    )
    const over = await agent.spendEvaluation.evaluate({
      payload: { amount: 600, currency: "USD", merchant: { name: "OpenAI" }, purpose: "tokens" }
    })
    assert.strictEqual(over.outcome, "denied", "the new version decides")

    const teamPolicy = await owner.agentKeys.setSpendPolicy({ payload: { policy: { perRequestLimit: 900 } } })
    assert.deepStrictEqual(await owner.agentKeys.getSpendPolicy(), teamPolicy)

    const teamKey = await owner.agentKeys.createTeamApiKey({
      payload: { name: "reader", mode: "test", scopes: ["accounts.read"] }
    })
    assert.deepStrictEqual(
      (await owner.agentKeys.listTeamApiKeys({ query: {} })).data.map((k) => k.id),
      [teamKey.id]
    )
    const reader = createClient({ baseUrl: app.baseUrl(), token: teamKey.secret })
    assert.strictEqual((await reader.accounts.balance()).available, 1_000)
    await owner.agentKeys.revokeTeamApiKey({ params: { id: teamKey.id } })
    assert.strictEqual((await failureOf(reader.accounts.balance())).status, 401)

    assert.deepStrictEqual(
      (await owner.agentKeys.listSpendingKeys({ query: {} })).data.map((k) => k.id),
      [keyId]
    )
    await owner.agentKeys.revokeSpendingKey({ params: { id: keyId } })
    assert.strictEqual((await failureOf(agent.accounts.balance())).status, 401)
  })

  it("creates a generic API key that reads the team's customers, lists it and revokes it", async () => {
    const { owner } = await sdkTeam(app.baseUrl())
    await owner.customers.create({ payload: { name: "Globex" } })
    const key = await owner.apiKeys.create({ payload: { name: "books", scopes: ["customers.read"] } })
    const books = createClient({ baseUrl: app.baseUrl(), token: key.secret })
    assert.deepStrictEqual(
      (await books.customers.list({ query: {} })).data.map((c) => c.name),
      ["Globex"]
    )
    assert.strictEqual((await failureOf(books.customers.create({ payload: { name: "X" } }))).status, 403)
    assert.deepStrictEqual(
      (await owner.apiKeys.list({ query: {} })).data.map((k) => k.id),
      [key.id]
    )
    await owner.apiKeys.revoke({ params: { id: key.id } })
    assert.strictEqual((await failureOf(books.customers.list({ query: {} }))).status, 401)
  })

  it("creates, reads, updates, rotates and submits an OAuth application", async () => {
    const { owner } = await sdkTeam(app.baseUrl())
    const created = await owner.oauthApplications.create({
      payload: { name: "Books sync", redirectUris: ["https://acme.example/callback"], scopes: ["customers.read"] }
    })
    assert.strictEqual(created.status, "draft")
    assert.isString(created.secret)
    assert.strictEqual((await owner.oauthApplications.get({ params: { id: created.id } })).name, "Books sync")
    const renamed = await owner.oauthApplications.update({ params: { id: created.id }, payload: { name: "Books" } })
    assert.strictEqual(renamed.name, "Books")
    const rotated = await owner.oauthApplications.rotateSecret({ params: { id: created.id } })
    assert.notStrictEqual(rotated.secret, created.secret)
    const submitted = await owner.oauthApplications.setStatus({
      params: { id: created.id },
      payload: { status: "pending" }
    })
    assert.strictEqual(submitted.status, "pending")
    assert.deepStrictEqual(
      (await owner.oauthApplications.list({ query: {} })).data.map((a) => [a.id, a.status]),
      [[created.id, "pending"]]
    )
  })

  it("creates, reads, updates, rotates and disables a webhook endpoint", async () => {
    const { owner } = await sdkTeam(app.baseUrl())
    const endpoint = await owner.webhookEndpoints.create({
      payload: { url: "https://hooks.example.com/svc", eventTypes: ["*"] }
    })
    assert.isString(endpoint.secret)
    assert.strictEqual((await owner.webhookEndpoints.get({ params: { id: endpoint.id } })).url, endpoint.url)
    const narrowed = await owner.webhookEndpoints.update({
      params: { id: endpoint.id },
      payload: { eventTypes: ["spend_request.approved"] }
    })
    assert.deepStrictEqual(narrowed.eventTypes, ["spend_request.approved"])
    const rotated = await owner.webhookEndpoints.rotateSecret({ params: { id: endpoint.id } })
    assert.notStrictEqual(rotated.secret, endpoint.secret)
    assert.deepStrictEqual(
      (await owner.webhookEndpoints.deliveries({ params: { id: endpoint.id }, query: {} })).data,
      []
    )
    assert.deepStrictEqual(
      (await owner.webhookEndpoints.list({ query: {} })).data.map((e) => e.id),
      [endpoint.id]
    )
    const disabled = await owner.webhookEndpoints.disable({ params: { id: endpoint.id } })
    assert.strictEqual(disabled.id, endpoint.id)
    const bad = await failureOf(
      owner.webhookEndpoints.create({ payload: { url: "https://hooks.example.com/x", eventTypes: ["nope"] } })
    )
    assert.strictEqual(bad.details?.[0]?.path, "eventTypes")
  })
})

import { afterAll, assert, describe, it } from "@effect/vitest"
import { type ActivityDetail, type ActivityItem, createClient, type SpendStats } from "@svc/sdk"
import { createSpend, spendBody } from "../spend/SpendHttpSetup.ts"
import { setUpKeyedTeam } from "../support/HttpScenarios.ts"
import { inProcessApp, testConfig } from "../support/InProcessApp.ts"
import { failureOf, loopbackServer } from "../support/LoopbackServer.ts"

const app = inProcessApp(testConfig)
afterAll(() => app.dispose())
const server = loopbackServer(app.handler)

describe("the SDK's treasury activity", () => {
  it("lists activity with filters, reads an item's detail and the spend stats, and fails typed on bad input", async () => {
    const acme = await setUpKeyedTeam(app, { funds: 50_000, policy: { approvalThreshold: 5_000 } })
    const owner = createClient({ baseUrl: server.baseUrl(), token: acme.owner })
    const small = await createSpend(app, acme.key, spendBody(1_000))
    const pending = await createSpend(app, acme.key, spendBody(6_000))

    const listed: ReadonlyArray<ActivityItem> = (await owner.treasury.activity({ query: { kind: "spend_request" } }))
      .data
    assert.deepStrictEqual(
      listed.map((item) => [item.id, item.status, item.keyName]),
      [
        [pending.body.id, "pending_approval", "agent"],
        [small.body.id, "approved", "agent"]
      ]
    )
    const waiting = await owner.treasury.activity({ query: { status: "pending_approval", mode: "test" } })
    assert.deepStrictEqual(
      waiting.data.map((item) => item.approvalId),
      [pending.body.approval.id]
    )

    const detail: ActivityDetail = await owner.treasury.activityDetail({
      params: { kind: "spend_request", id: small.body.id }
    })
    assert.deepStrictEqual(
      detail.trail.map((step) => step.action),
      ["requested", "policy_evaluated", "approved"]
    )
    assert.deepStrictEqual(
      detail.ledgerTransactions.map((tx) => tx.kind),
      ["posted"]
    )

    const stats: SpendStats = await owner.treasury.spendStats({ query: { mode: "test", days: 1 } })
    assert.strictEqual(stats.from, stats.to)
    assert.deepStrictEqual(stats.keys[0]?.daily, [{ date: stats.to, amount: 1_000 }])
    assert.strictEqual(stats.keys[0]?.usedToday, 7_000)

    const missing = await failureOf(
      owner.treasury.activityDetail({ params: { kind: "transfer", id: crypto.randomUUID() } })
    )
    assert.deepStrictEqual([missing.status, missing.error], [404, "not_found"])
    const inverted = await failureOf(
      owner.treasury.activity({ query: { from: "2026-11-02T00:00:00Z", to: "2026-11-01T00:00:00Z" } })
    )
    assert.deepStrictEqual([inverted.status, inverted.error], [400, "validation_failed"])
  })
})

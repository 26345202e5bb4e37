import { afterAll, assert, describe, it } from "@effect/vitest"
import { createClient } from "@svc/sdk"
import { createSpend } from "../spend/SpendHttpSetup.ts"
import { setUpKeyedTeam } from "../support/HttpScenarios.ts"
import { inProcessApp, testConfig } from "../support/InProcessApp.ts"
import { failureOf, loopbackServer } from "../support/LoopbackServer.ts"

const app = inProcessApp(testConfig)
afterAll(() => app.dispose())
const server = loopbackServer(app.handler)

const spendBody = (amount: number) => ({
  amount,
  currency: "USD",
  merchant: { name: "Acme Cloud", category: "software" },
  purpose: "compute"
})

describe("the SDK's approval chain and kill switch", () => {
  it("sets the chain, shows an approval's progress, approves, and freezes and lifts spending", async () => {
    const acme = await setUpKeyedTeam(app, { funds: 50_000 })
    const owner = createClient({ baseUrl: server.baseUrl(), token: acme.owner })
    const rules = { tiers: [{ minAmount: 1_000, approvals: 1, roles: ["owner" as const, "admin" as const] }] }
    assert.deepStrictEqual(await owner.governance.setApprovalRules({ payload: rules }), rules)
    assert.deepStrictEqual(await owner.governance.getApprovalRules(), rules)
    const bad = await failureOf(
      owner.governance.setApprovalRules({ payload: { tiers: [{ ...rules.tiers[0]!, approvals: 2 }] } })
    )
    assert.deepStrictEqual([bad.status, bad.error], [400, "validation_failed"])

    const pending = await createSpend(app, acme.key, spendBody(2_000))
    const queue = await owner.treasury.approvals({ query: { status: "pending" } })
    assert.deepStrictEqual(queue.data[0]?.approvals, {
      required: 1,
      roles: ["owner", "admin"],
      requireOwner: false,
      received: 0,
      decisions: []
    })
    const frozen = await owner.governance.freezeSpending({ payload: { reason: "quarter close" } })
    assert.strictEqual(frozen.scope, "team")
    assert.deepStrictEqual(
      (await owner.governance.listSpendFreezes({ query: {} })).data.map((f) => f.id),
      [frozen.id]
    )
    const refused = await failureOf(owner.treasury.approve({ params: { id: pending.body.approval.id }, payload: {} }))
    assert.deepStrictEqual([refused.status, refused.error], [409, "spending_frozen"])
    assert.isNotNull((await owner.governance.liftSpendFreeze({ query: {} })).liftedAt)
    const approved = await owner.treasury.approve({ params: { id: pending.body.approval.id }, payload: { note: "ok" } })
    assert.strictEqual(approved.status, "approved")
    assert.strictEqual(approved.approvals.received, 1)
    assert.deepStrictEqual([approved.subjectType, approved.subject.status], ["spend_request", "approved"])
  })
})

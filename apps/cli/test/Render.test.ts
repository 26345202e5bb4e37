import { assert, describe, it } from "@effect/vitest"
import type { Approval, SpendRequest } from "@svc/sdk"
import * as Render from "../src/Render.ts"

/** A pending approval of `subjectType` whose `subject` has only the fields the CLI prints. */
const approvalOf = (id: string, subjectType: Approval["subjectType"], subject: object) =>
  ({ id, status: "pending", expiresAt: "2026-11-28T12:00:00Z", subjectType, subject }) as unknown as Approval

describe("svc approvals list", () => {
  it("prints each approval's subject from `subject`, by its subject type", () => {
    const merchant = { amount: 5_100, currency: "USD", merchant: { name: "OpenAI" }, purpose: "API tokens" }
    const lines = Render.approvals([
      approvalOf("a1", "spend_request", merchant),
      approvalOf("a2", "transfer", { amount: 900, to: { address: "addr-1" } }),
      approvalOf("a3", "checkout_intent", { ...merchant, amount: 2_500 }),
      approvalOf("a4", "crypto_payout", { amount: 15_000, currency: "USD", address: "0xabc" })
    ]).split("\n")
    assert.strictEqual(lines.length, 5)
    assert.match(lines[1] ?? "", /^a1 .*spend USD 51\.00 at OpenAI: API tokens$/u)
    assert.match(lines[2] ?? "", /^a2 .*transfer USD 9\.00 to addr-1$/u)
    assert.match(lines[3] ?? "", /^a3 .*checkout USD 25\.00 at OpenAI: API tokens$/u)
    assert.match(lines[4] ?? "", /^a4 .*payout USD 150\.00 to 0xabc$/u)
  })
})

describe("svc spend get", () => {
  it("writes the policy's reasons with their money as the amount beside them, counts as counts", () => {
    const request = {
      id: "r1",
      status: "denied",
      amount: 5_000,
      currency: "JPY",
      merchant: { name: "OpenAI", category: null, url: null },
      purpose: "API tokens",
      decision: {
        outcome: "denied",
        reasons: [
          { code: "amount_over_limit", message: "amount 5000 exceeds the per-request limit 2500", limit: 2_500 },
          { code: "daily_budget_exceeded", message: "m", limit: 10_000, used: 9_000 },
          { code: "velocity_exceeded", message: "m", limit: 10, used: 10 },
          { code: "insufficient_funds", message: "m", available: 1_200 },
          { code: "a_newer_code", message: "as the service says" }
        ]
      },
      approval: null,
      createdAt: "2026-11-28T12:00:00Z"
    } as unknown as SpendRequest
    const text = Render.spendRequest(request)
    assert.match(text, /^amount\s+JPY 5000$/mu)
    assert.match(text, /amount_over_limit: Over the per-request limit \(limit JPY 2500\)$/mu)
    assert.match(text, /daily_budget_exceeded: Over the daily budget \(limit JPY 10000, already used JPY 9000\)$/mu)
    assert.match(text, /velocity_exceeded: Too many requests \(limit 10, already used 10\)$/mu)
    assert.match(text, /insufficient_funds: Not enough funds \(available JPY 1200\)$/mu)
    assert.match(text, /a_newer_code: as the service says$/mu)
    assert.notInclude(text, "exceeds the per-request limit 2500")
  })
})

describe("svc approvals: who decided", () => {
  it("names the approver as the service does (name, else e-mail), the user id only when nothing else is known", () => {
    const decided = (decidedByName: string | null) =>
      ({
        ...approvalOf("a9", "transfer", { amount: 900, to: { address: "addr-1" } }),
        status: "approved",
        decidedAt: "2026-11-28T12:05:00Z",
        decidedBy: "0190f2aa-0000-7000-8000-000000000001",
        decidedByName,
        note: null,
        approvals: { received: 1, required: 1 }
      }) as unknown as Approval
    assert.match(Render.approval(decided("Ada Lovelace")), /^decided\s+2026-11-28T12:05:00Z by Ada Lovelace$/mu)
    assert.notInclude(Render.approval(decided("Ada Lovelace")), "0190f2aa")
    assert.match(Render.approvals([decided("ada@acme.test")]), /^a9\s+approved\s+\S+\s+ada@acme\.test\s+transfer/mu)
    assert.match(Render.approval(decided(null)), /by 0190f2aa-0000-7000-8000-000000000001$/mu)
  })
})

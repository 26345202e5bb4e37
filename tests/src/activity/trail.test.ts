import { assert, describe, it } from "@effect/vitest"
import { type ApprovalView, type SpendDecision, type TrailInput, trailOf } from "@svc/domain"

const T0 = "2026-11-27T10:00:00.000Z"
const T1 = "2026-11-27T10:05:00.000Z"
const T2 = "2026-11-27T10:09:00.000Z"
const T3 = "2026-11-27T11:00:00.000Z"

const pendingDecision: SpendDecision = {
  outcome: "pending_approval",
  reasons: [{ code: "approval_threshold", message: "amount 6000 is at or above the approval threshold 5000" }]
}

const approval = (over: Partial<ApprovalView>): ApprovalView => ({
  id: "a",
  status: "pending",
  expiresAt: T3,
  decidedAt: null,
  decidedBy: null,
  decidedByName: null,
  note: null,
  approvals: { required: 2, roles: ["owner", "admin"], requireOwner: false, received: 0, decisions: [] },
  ...over
})

const input = (over: Partial<TrailInput>): TrailInput => ({
  createdAt: T0,
  updatedAt: T0,
  status: "pending_approval",
  requestedBy: "agent",
  decision: pendingDecision,
  approval: approval({}),
  ...over
})

const emails: Record<string, string> = { u1: "ada@example.com", u2: "bob@example.com" }
const actorOf = (userId: string) => emails[userId] ?? userId
const actions = (steps: ReadonlyArray<{ readonly action: string }>) => steps.map((s) => s.action)

describe("an item's trail", () => {
  it("a quorum shows each member's step with their note, the last one deciding, oldest first", () => {
    const steps = trailOf(
      input({
        status: "approved",
        updatedAt: T2,
        approval: approval({
          status: "approved",
          decidedAt: T2,
          decidedBy: "u1",
          note: "second",
          approvals: {
            required: 2,
            roles: ["owner", "admin"],
            requireOwner: false,
            received: 2,
            decisions: [
              { userId: "u2", role: "admin", decision: "approved", note: "first", decidedAt: T1 },
              { userId: "u1", role: "owner", decision: "approved", note: "second", decidedAt: T2 }
            ]
          }
        })
      }),
      actorOf
    )
    assert.deepStrictEqual(steps, [
      { at: T0, action: "requested", actor: "agent", detail: null },
      {
        at: T0,
        action: "policy_evaluated",
        actor: "system",
        detail: "pending_approval: amount 6000 is at or above the approval threshold 5000",
        reasons: pendingDecision.reasons
      },
      {
        at: T0,
        action: "approval_required",
        actor: "system",
        detail: "amount 6000 is at or above the approval threshold 5000",
        reasons: pendingDecision.reasons
      },
      { at: T1, action: "approved", actor: "bob@example.com", detail: "first" },
      { at: T2, action: "approved", actor: "ada@example.com", detail: "second" }
    ])
  })

  it("an approval decided without recorded steps still shows who decided; an expiry is the system's", () => {
    const decided = trailOf(
      input({ approval: approval({ status: "denied", decidedAt: T1, decidedBy: "u9", note: "no" }) }),
      actorOf
    )
    assert.deepStrictEqual(decided.at(-1), { at: T1, action: "denied", actor: "u9", detail: "no" })
    const expired = trailOf(
      input({
        status: "expired",
        updatedAt: T3,
        approval: approval({ status: "expired", decidedAt: T3 }),
        finalStep: { action: "expired", detail: null }
      }),
      actorOf
    )
    assert.deepStrictEqual(actions(expired), ["requested", "policy_evaluated", "approval_required", "expired"])
    assert.strictEqual(expired.at(-1)?.actor, "system")
  })

  it("a decision made at once ends the policy's part; a final status adds its own step", () => {
    const denied = trailOf(
      input({
        status: "denied",
        approval: null,
        decision: { outcome: "denied", reasons: [{ code: "amount_over_limit", message: "over the limit" }] }
      }),
      actorOf
    )
    assert.deepStrictEqual(denied.at(-1), {
      at: T0,
      action: "denied",
      actor: "system",
      detail: "over the limit",
      reasons: [{ code: "amount_over_limit", message: "over the limit" }]
    })
    const captured = trailOf(
      input({
        status: "completed",
        updatedAt: T2,
        approval: null,
        decision: { outcome: "approved", reasons: [] },
        finalStep: { action: "captured", detail: "captured 3000", amount: 3000 }
      }),
      actorOf
    )
    assert.deepStrictEqual(actions(captured), ["requested", "policy_evaluated", "approved", "captured"])
    assert.deepStrictEqual(captured[1], { at: T0, action: "policy_evaluated", actor: "system", detail: "approved" })
    assert.deepStrictEqual(captured.at(-1), {
      at: T2,
      action: "captured",
      actor: "system",
      detail: "captured 3000",
      amount: 3000
    })
  })
})

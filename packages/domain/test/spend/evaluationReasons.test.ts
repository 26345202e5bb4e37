import { assert, describe, it } from "@effect/vitest"
import { approvalThresholdOf, categoryReason, frozenReason, merchantReason } from "../../src/spend/SpendEvaluation.ts"

const tier = (minAmount: number) => ({ minAmount, approvals: 1, roles: ["admin" as const] })

describe("the reasons evaluateSpend composes", () => {
  it("merchantReason blocks a listed merchant by its normalised name, and one off the allow-list", () => {
    assert.strictEqual(merchantReason({ blockedMerchants: ["ACME  Corp"] }, " acme corp ")?.code, "merchant_blocked")
    assert.match(merchantReason({ allowedMerchants: ["Shop"] }, "Other")?.message ?? "", /not on the allowed/u)
    assert.strictEqual(merchantReason({ allowedMerchants: ["Shop"] }, "SHOP"), undefined)
    assert.strictEqual(merchantReason({}, "anyone"), undefined)
  })

  it("categoryReason blocks a listed category, a missing one under an allow-list, and one off the allow-list", () => {
    assert.strictEqual(categoryReason({ blockedCategories: ["travel"] }, " Travel ")?.code, "category_blocked")
    assert.match(categoryReason({ allowedCategories: ["software"] }, undefined)?.message ?? "", /has no category/u)
    assert.match(categoryReason({ allowedCategories: ["software"] }, "food")?.message ?? "", /not on the allowed/u)
    assert.strictEqual(categoryReason({ allowedCategories: ["software"] }, "Software"), undefined)
    assert.strictEqual(categoryReason({}, undefined), undefined)
  })

  it("frozenReason names the scope and the reason of a freeze, and nothing while spending is open", () => {
    assert.strictEqual(frozenReason(undefined), undefined)
    const reason = frozenReason({ scope: "spending_key", reason: "lost laptop", frozenAt: "2026-11-18T12:00:00.000Z" })
    assert.strictEqual(reason?.code, "spending_frozen")
    assert.match(reason?.message ?? "", /this key's spending is frozen since 2026-11-18T12:00:00.000Z: lost laptop/u)
  })

  it("approvalThresholdOf takes the lower of the policy's threshold and the first tier", () => {
    assert.strictEqual(approvalThresholdOf({}, undefined), undefined)
    assert.strictEqual(approvalThresholdOf({ approvalThreshold: 500 }, []), 500)
    assert.strictEqual(approvalThresholdOf({}, [tier(800)]), 800)
    assert.strictEqual(approvalThresholdOf({ approvalThreshold: 500 }, [tier(800)]), 500)
    assert.strictEqual(approvalThresholdOf({ approvalThreshold: 900 }, [tier(800)]), 800)
  })
})

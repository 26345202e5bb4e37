import { assert, describe, it } from "@effect/vitest"
import { Schema } from "effect"
import { SpendDecision } from "../../src/spend/SpendPolicy.ts"
import { codes, evaluate } from "./SpendPolicySetup.ts"

describe("evaluateSpend", () => {
  it("approves with no reasons under an empty policy", () => {
    assert.deepStrictEqual(evaluate({}), { outcome: "approved", reasons: [] })
  })

  describe("merchant rules", () => {
    it("denies a blocked merchant with merchant_blocked", () => {
      const decision = evaluate({ policy: { blockedMerchants: ["Acme Cloud"] } })
      assert.deepStrictEqual(decision, {
        outcome: "denied",
        reasons: [{ code: "merchant_blocked", message: 'merchant "Acme Cloud" is on the blocked merchant list' }]
      })
    })

    it("matches blocked merchants case-insensitively after trimming", () => {
      const policy = { blockedMerchants: ["  ACME cloud "] }
      assert.deepStrictEqual(codes({ policy }), ["merchant_blocked"])
      assert.deepStrictEqual(codes({ policy, merchant: { name: "\tacme CLOUD  " } }), ["merchant_blocked"])
      assert.deepStrictEqual(codes({ policy, merchant: { name: "Acme Cloud Inc" } }), [])
    })

    it("denies a merchant outside the allow list", () => {
      const decision = evaluate({ policy: { allowedMerchants: ["Other Vendor"] } })
      assert.strictEqual(decision.outcome, "denied")
      assert.deepStrictEqual(decision.reasons, [
        { code: "merchant_blocked", message: 'merchant "Acme Cloud" is not on the allowed merchant list' }
      ])
    })

    it("approves a merchant on the allow list, case-insensitively", () => {
      assert.strictEqual(evaluate({ policy: { allowedMerchants: ["Other", " acme CLOUD"] } }).outcome, "approved")
    })

    it("reports merchant_blocked once when the merchant is blocked and not allowed", () => {
      const decision = evaluate({ policy: { blockedMerchants: ["acme cloud"], allowedMerchants: ["Other"] } })
      assert.deepStrictEqual(decision.reasons, [
        { code: "merchant_blocked", message: 'merchant "Acme Cloud" is on the blocked merchant list' }
      ])
    })

    it("lets the block list win over the allow list", () => {
      assert.deepStrictEqual(
        codes({ policy: { blockedMerchants: ["Acme Cloud"], allowedMerchants: ["Acme Cloud"] } }),
        ["merchant_blocked"]
      )
    })

    it("treats an empty allow list as set and denies every merchant", () => {
      assert.deepStrictEqual(codes({ policy: { allowedMerchants: [] } }), ["merchant_blocked"])
    })

    it("ignores an empty block list", () => {
      assert.strictEqual(evaluate({ policy: { blockedMerchants: [] } }).outcome, "approved")
    })
  })

  describe("category rules", () => {
    it("denies a blocked category with category_blocked", () => {
      assert.deepStrictEqual(evaluate({ policy: { blockedCategories: ["travel", "software"] } }), {
        outcome: "denied",
        reasons: [{ code: "category_blocked", message: 'category "software" is on the blocked category list' }]
      })
    })

    it("does not block a request without a category when only a block list is set", () => {
      assert.strictEqual(
        evaluate({ policy: { blockedCategories: ["software"] }, merchant: { name: "Acme Cloud" } }).outcome,
        "approved"
      )
    })

    it("denies a category outside the allow list", () => {
      assert.deepStrictEqual(evaluate({ policy: { allowedCategories: ["travel"] } }).reasons, [
        { code: "category_blocked", message: 'category "software" is not on the allowed category list' }
      ])
    })

    it("approves a category on the allow list", () => {
      assert.strictEqual(evaluate({ policy: { allowedCategories: ["travel", "software"] } }).outcome, "approved")
    })

    it("denies a request without a category when an allow list is set", () => {
      const policy = { allowedCategories: ["software"] }
      assert.deepStrictEqual(codes({ policy, merchant: { name: "Acme Cloud" } }), ["category_blocked"])
      assert.deepStrictEqual(codes({ policy, merchant: { name: "Acme Cloud", category: undefined } }), [
        "category_blocked"
      ])
      assert.deepStrictEqual(codes({ policy, merchant: { name: "Acme Cloud", category: "  " } }), ["category_blocked"])
    })

    it("treats an empty category allow list as set and denies everything", () => {
      assert.deepStrictEqual(codes({ policy: { allowedCategories: [] } }), ["category_blocked"])
    })

    it("normalises the request category before comparing", () => {
      assert.deepStrictEqual(
        codes({ policy: { blockedCategories: ["software"] }, merchant: { name: "x", category: " Software " } }),
        ["category_blocked"]
      )
    })
  })

  describe("per-request limit", () => {
    it("denies amount_over_limit with both numbers in the message", () => {
      assert.deepStrictEqual(evaluate({ amount: 5000, policy: { perRequestLimit: 1000 } }), {
        outcome: "denied",
        reasons: [{ code: "amount_over_limit", message: "amount 5000 exceeds the per-request limit 1000" }]
      })
    })

    it("approves amount == limit and denies limit + 1", () => {
      assert.strictEqual(evaluate({ amount: 1000, policy: { perRequestLimit: 1000 } }).outcome, "approved")
      assert.deepStrictEqual(codes({ amount: 1001, policy: { perRequestLimit: 1000 } }), ["amount_over_limit"])
    })

    it("with a zero limit approves only zero amounts", () => {
      assert.strictEqual(evaluate({ amount: 0, policy: { perRequestLimit: 0 } }).outcome, "approved")
      assert.deepStrictEqual(codes({ amount: 1, policy: { perRequestLimit: 0 } }), ["amount_over_limit"])
    })
  })

  describe("budgets", () => {
    it("denies daily_budget_exceeded naming spent, amount and budget", () => {
      const decision = evaluate({ amount: 200, spentToday: 900, policy: { dailyBudget: 1000 } })
      assert.strictEqual(decision.outcome, "denied")
      assert.deepStrictEqual(decision.reasons, [
        {
          code: "daily_budget_exceeded",
          message: "daily spend 900 plus amount 200 is 1100, which exceeds the daily budget 1000"
        }
      ])
    })

    it("denies monthly_budget_exceeded naming spent, amount and budget", () => {
      const decision = evaluate({ amount: 200, spentThisMonth: 9900, policy: { monthlyBudget: 10_000 } })
      assert.deepStrictEqual(decision.reasons, [
        {
          code: "monthly_budget_exceeded",
          message: "monthly spend 9900 plus amount 200 is 10100, which exceeds the monthly budget 10000"
        }
      ])
    })

    it("approves when spent + amount == budget and denies one above", () => {
      const policy = { dailyBudget: 1000, monthlyBudget: 5000 }
      assert.strictEqual(evaluate({ policy, amount: 100, spentToday: 900, spentThisMonth: 900 }).outcome, "approved")
      assert.strictEqual(evaluate({ policy, amount: 1000, spentToday: 0, spentThisMonth: 4000 }).outcome, "approved")
      assert.deepStrictEqual(codes({ policy, amount: 101, spentToday: 900, spentThisMonth: 900 }), [
        "daily_budget_exceeded"
      ])
      assert.deepStrictEqual(codes({ policy, amount: 1000, spentToday: 0, spentThisMonth: 4001 }), [
        "monthly_budget_exceeded"
      ])
    })

    it("approves amount == budget with nothing spent", () => {
      assert.strictEqual(
        evaluate({ amount: 1000, policy: { dailyBudget: 1000, monthlyBudget: 1000 } }).outcome,
        "approved"
      )
    })

    it("denies even a zero amount once spend is already over budget", () => {
      assert.deepStrictEqual(codes({ amount: 0, spentToday: 1001, policy: { dailyBudget: 1000 } }), [
        "daily_budget_exceeded"
      ])
    })

    it("ignores spend when no budget is set", () => {
      assert.strictEqual(
        evaluate({ spentToday: Number.MAX_SAFE_INTEGER, spentThisMonth: Number.MAX_SAFE_INTEGER }).outcome,
        "approved"
      )
    })

    it("compares exactly near MAX_SAFE_INTEGER", () => {
      const budget = Number.MAX_SAFE_INTEGER
      assert.strictEqual(
        evaluate({ amount: 1, spentToday: budget - 1, policy: { dailyBudget: budget } }).outcome,
        "approved"
      )
      assert.deepStrictEqual(codes({ amount: 2, spentToday: budget - 1, policy: { dailyBudget: budget } }), [
        "daily_budget_exceeded"
      ])
    })
  })

  describe("funds", () => {
    it("denies insufficient_funds when available < amount", () => {
      assert.deepStrictEqual(evaluate({ amount: 500, available: 499 }), {
        outcome: "denied",
        reasons: [{ code: "insufficient_funds", message: "available balance 499 is below the amount 500" }]
      })
    })

    it("approves when available == amount", () => {
      assert.strictEqual(evaluate({ amount: 500, available: 500 }).outcome, "approved")
      assert.strictEqual(evaluate({ amount: 0, available: 0 }).outcome, "approved")
    })

    it("fails closed on a non-numeric amount", () => {
      assert.strictEqual(evaluate({ amount: Number.NaN }).outcome, "denied")
    })
  })

  describe("approval threshold", () => {
    it("pends at amount == threshold with approval_threshold", () => {
      assert.deepStrictEqual(evaluate({ amount: 5000, policy: { approvalThreshold: 5000 } }), {
        outcome: "pending_approval",
        reasons: [
          {
            code: "approval_threshold",
            message: "amount 5000 is at or above the approval threshold 5000",
            approvers: { required: 1, roles: ["owner", "admin"], requireOwner: false }
          }
        ]
      })
    })

    it("pends above and approves below the threshold", () => {
      assert.strictEqual(evaluate({ amount: 5001, policy: { approvalThreshold: 5000 } }).outcome, "pending_approval")
      assert.deepStrictEqual(evaluate({ amount: 4999, policy: { approvalThreshold: 5000 } }), {
        outcome: "approved",
        reasons: []
      })
    })

    it("with a zero threshold pends every request", () => {
      assert.strictEqual(evaluate({ amount: 0, policy: { approvalThreshold: 0 } }).outcome, "pending_approval")
    })

    it("pends when every deny rule sits exactly on its boundary", () => {
      const decision = evaluate({
        amount: 1000,
        spentToday: 1000,
        spentThisMonth: 4000,
        available: 1000,
        policy: { perRequestLimit: 1000, dailyBudget: 2000, monthlyBudget: 5000, approvalThreshold: 1000 }
      })
      assert.strictEqual(decision.outcome, "pending_approval")
      assert.deepStrictEqual(
        decision.reasons.map((r) => r.code),
        ["approval_threshold"]
      )
    })
  })

  describe("combinations", () => {
    it("lists every deny rule that fired, in contract order", () => {
      const decision = evaluate({
        amount: 5000,
        spentToday: 100,
        spentThisMonth: 100,
        available: 10,
        merchant: { name: "Acme Cloud", category: "gambling" },
        policy: {
          blockedMerchants: ["acme cloud"],
          blockedCategories: ["gambling"],
          perRequestLimit: 1000,
          dailyBudget: 2000,
          monthlyBudget: 3000,
          approvalThreshold: 100
        }
      })
      assert.strictEqual(decision.outcome, "denied")
      assert.deepStrictEqual(
        decision.reasons.map((r) => r.code),
        [
          "merchant_blocked",
          "category_blocked",
          "amount_over_limit",
          "daily_budget_exceeded",
          "monthly_budget_exceeded",
          "insufficient_funds"
        ]
      )
    })

    it("lets any deny rule win over the approval threshold", () => {
      const threshold = { approvalThreshold: 100 }
      assert.deepStrictEqual(codes({ amount: 5000, policy: { ...threshold, perRequestLimit: 1000 } }), [
        "amount_over_limit"
      ])
      assert.deepStrictEqual(codes({ amount: 5000, available: 10, policy: threshold }), ["insufficient_funds"])
      assert.deepStrictEqual(codes({ policy: { ...threshold, blockedMerchants: ["Acme Cloud"] } }), [
        "merchant_blocked"
      ])
      assert.deepStrictEqual(codes({ policy: { ...threshold, allowedCategories: ["travel"] } }), ["category_blocked"])
      assert.deepStrictEqual(codes({ spentToday: 1, policy: { ...threshold, dailyBudget: 1000 } }), [
        "daily_budget_exceeded"
      ])
      assert.deepStrictEqual(codes({ spentThisMonth: 1, policy: { ...threshold, monthlyBudget: 1000 } }), [
        "monthly_budget_exceeded"
      ])
    })

    it("reports both budgets and the limit together", () => {
      assert.deepStrictEqual(
        codes({ amount: 3000, policy: { perRequestLimit: 2000, dailyBudget: 2500, monthlyBudget: 2999 } }),
        ["amount_over_limit", "daily_budget_exceeded", "monthly_budget_exceeded"]
      )
    })

    it("produces decisions that satisfy the SpendDecision schema", () => {
      const decisions = [
        evaluate({}),
        evaluate({ policy: { approvalThreshold: 1 } }),
        evaluate({ available: 0, policy: { blockedMerchants: ["acme cloud"] } })
      ]
      for (const decision of decisions) assert.isTrue(Schema.is(SpendDecision)(decision))
    })
  })
})

import { assert, describe, it } from "@effect/vitest"
import { Result, Schema, SchemaIssue } from "effect"
import { DEFAULT_APPROVERS, type RequiredApprovers } from "../../src/approvals/model.ts"
import type { AllowedHours } from "../../src/spend/AllowedHours.ts"
import {
  type DecisionReasonCode,
  effectivePolicy,
  evaluateSpend,
  NO_USAGE,
  normalizeMerchantName,
  SpendPolicy
} from "../../src/spend/model.ts"
import { codes, evaluate } from "./SpendPolicySetup.ts"

/** Wednesday 2026-11-18 12:00 UTC (13:00 in Paris), the setup's `now`. */
const WEDNESDAY_NOON = Date.parse("2026-11-18T12:00:00.000Z")
const parisMornings: AllowedHours = {
  timezone: "Europe/Paris",
  days: ["mon", "tue", "wed", "thu", "fri"],
  from: "08:00",
  to: "12:00"
}
const parisAfternoons: AllowedHours = { ...parisMornings, from: "13:00", to: "18:00" }

describe("new-merchant review", () => {
  it("sends the first request to a merchant the team never paid to approval, whatever its amount", () => {
    for (const amount of [1, 1000]) {
      const decision = evaluate({ policy: { reviewNewMerchants: true }, amount, merchantKnown: false })
      assert.strictEqual(decision.outcome, "pending_approval")
      assert.deepStrictEqual(decision.reasons, [
        {
          code: "new_merchant",
          message: 'the team has never paid merchant "Acme Cloud"; its first request needs approval',
          approvers: DEFAULT_APPROVERS
        }
      ])
    }
  })

  it("counts a merchant it is not told about as never paid", () => {
    assert.deepStrictEqual(codes({ policy: { reviewNewMerchants: true } }), ["new_merchant"])
  })

  it("approves a known merchant, and an unknown one when review is off", () => {
    assert.strictEqual(evaluate({ policy: { reviewNewMerchants: true }, merchantKnown: true }).outcome, "approved")
    assert.strictEqual(evaluate({ policy: { reviewNewMerchants: false }, merchantKnown: false }).outcome, "approved")
    assert.strictEqual(evaluate({ policy: {}, merchantKnown: false }).outcome, "approved")
  })

  it("says who must approve, as the approval rules require", () => {
    const approvers: RequiredApprovers = { required: 2, roles: ["owner"], requireOwner: true }
    const [reason] = evaluate({
      policy: { reviewNewMerchants: true },
      approvalTiers: [{ minAmount: 0, approvals: 2, roles: ["owner"], requireOwner: true }]
    }).reasons
    assert.deepStrictEqual(reason?.approvers, approvers)
  })

  it("is reported before the approval threshold, and not at all when a rule denies", () => {
    assert.deepStrictEqual(codes({ policy: { reviewNewMerchants: true, approvalThreshold: 500 } }), [
      "new_merchant",
      "approval_threshold"
    ])
    const denied = evaluate({ policy: { reviewNewMerchants: true, dailyBudget: 500 } })
    assert.strictEqual(denied.outcome, "denied")
    assert.deepStrictEqual(
      denied.reasons.map((r) => r.code),
      ["daily_budget_exceeded"]
    )
  })
})

describe("allowed hours", () => {
  it("approves inside the window", () => {
    assert.strictEqual(evaluate({ policy: { allowedHours: parisAfternoons } }).outcome, "approved")
    assert.strictEqual(
      evaluate({ policy: { allowedHours: parisAfternoons, outsideHours: "approval" } }).outcome,
      "approved"
    )
  })

  it("denies outside the window by default, with the next allowed time", () => {
    const decision = evaluate({ policy: { allowedHours: parisMornings } })
    assert.deepStrictEqual(decision, {
      outcome: "denied",
      reasons: [
        {
          code: "outside_allowed_hours",
          message:
            "requests are allowed mon, tue, wed, thu, fri 08:00-12:00 Europe/Paris; the next allowed time is 2026-11-19T07:00:00.000Z",
          nextAllowedAt: "2026-11-19T07:00:00.000Z"
        }
      ]
    })
    assert.deepStrictEqual(evaluate({ policy: { allowedHours: parisMornings, outsideHours: "deny" } }), decision)
  })

  it("sends to approval outside the window when the policy says so, with who must approve", () => {
    const decision = evaluate({ policy: { allowedHours: parisMornings, outsideHours: "approval" } })
    assert.deepStrictEqual(decision, {
      outcome: "pending_approval",
      reasons: [
        {
          code: "outside_allowed_hours",
          message:
            "requests outside mon, tue, wed, thu, fri 08:00-12:00 Europe/Paris need approval; the next allowed time is 2026-11-19T07:00:00.000Z",
          nextAllowedAt: "2026-11-19T07:00:00.000Z",
          approvers: DEFAULT_APPROVERS
        }
      ]
    })
  })

  it("places a denial after the merchant and category lists and before the amount rules", () => {
    assert.deepStrictEqual(
      codes({
        policy: {
          allowedHours: parisMornings,
          blockedMerchants: ["acme cloud"],
          blockedCategories: ["software"],
          perRequestLimit: 10,
          dailyBudget: 10
        },
        available: 0
      }),
      [
        "merchant_blocked",
        "category_blocked",
        "outside_allowed_hours",
        "amount_over_limit",
        "daily_budget_exceeded",
        "insufficient_funds"
      ]
    )
  })

  it("reports every approval reason in order: hours, new merchant, threshold", () => {
    assert.deepStrictEqual(
      codes({
        policy: {
          allowedHours: parisMornings,
          outsideHours: "approval",
          reviewNewMerchants: true,
          approvalThreshold: 1
        }
      }),
      ["outside_allowed_hours", "new_merchant", "approval_threshold"]
    )
  })

  it("is checked at the moment of the decision", () => {
    const policy: SpendPolicy = { allowedHours: parisMornings }
    const parisNoon = WEDNESDAY_NOON - 3_600_000
    assert.strictEqual(evaluate({ policy, now: parisNoon - 4 * 3_600_000 - 1 }).outcome, "denied")
    assert.strictEqual(evaluate({ policy, now: parisNoon - 4 * 3_600_000 }).outcome, "approved")
    assert.strictEqual(evaluate({ policy, now: parisNoon - 1 }).outcome, "approved")
    assert.strictEqual(evaluate({ policy, now: parisNoon }).outcome, "denied")
  })

  it("takes the key's window over the team's, and the team's outsideHours where the key sets none", () => {
    const merged = effectivePolicy(
      { allowedHours: parisMornings },
      { allowedHours: parisAfternoons, outsideHours: "approval" }
    )
    assert.deepStrictEqual(merged, { allowedHours: parisMornings, outsideHours: "approval" })
    assert.strictEqual(evaluate({ policy: merged }).outcome, "pending_approval")
  })
})

describe("normalizeMerchantName", () => {
  it("folds case, width and whitespace runs", () => {
    assert.strictEqual(normalizeMerchantName("  Acme   Cloud\t"), "acme cloud")
    assert.strictEqual(normalizeMerchantName("ＡＣＭＥ Cloud"), "acme cloud")
    assert.strictEqual(normalizeMerchantName("Acme\u00a0Cloud"), "acme cloud")
    assert.notStrictEqual(normalizeMerchantName("Acme Cloud"), normalizeMerchantName("AcmeCloud"))
  })

  it("is what the merchant lists match under", () => {
    assert.deepStrictEqual(
      codes({ policy: { blockedMerchants: ["ACME  cloud"] }, merchant: { name: "ＡＣＭＥ Cloud" } }),
      ["merchant_blocked"]
    )
    assert.strictEqual(
      evaluate({ policy: { allowedMerchants: ["acme cloud "] }, merchant: { name: "Acme\u00a0Cloud" } }).outcome,
      "approved"
    )
  })
})

const Amount = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 1_000_000 }))

describe("new merchants and hours, properties", () => {
  it.prop(
    "never approves an unknown merchant under review, nor a request outside the allowed hours",
    {
      policy: SpendPolicy,
      amount: Amount,
      known: Schema.Boolean,
      now: Schema.Int.check(Schema.isBetween({ minimum: 1_700_000_000_000, maximum: 1_800_000_000_000 }))
    },
    ({ policy, amount, known, now }) => {
      const decision = evaluateSpend({
        policy,
        amount,
        merchant: { name: "Acme" },
        spent: NO_USAGE,
        categorySpent: NO_USAGE,
        recentRequests: [],
        requestsToday: 0,
        available: Number.MAX_SAFE_INTEGER,
        now,
        merchantKnown: known
      })
      const fired = decision.reasons.map((r) => r.code)
      if (policy.reviewNewMerchants === true && !known) assert.notStrictEqual(decision.outcome, "approved")
      const hours = fired.find((code) => code === "outside_allowed_hours")
      if (hours !== undefined) {
        assert.strictEqual(
          decision.outcome,
          (policy.outsideHours ?? "deny") === "deny" ? "denied" : "pending_approval",
          JSON.stringify(policy)
        )
      }
      const order: ReadonlyArray<DecisionReasonCode> = ["outside_allowed_hours", "new_merchant", "approval_threshold"]
      if (decision.outcome === "pending_approval") {
        assert.deepStrictEqual(
          fired,
          order.filter((code) => fired.includes(code))
        )
        for (const reason of decision.reasons) {
          if (reason.code !== "approval_threshold") assert.deepStrictEqual(reason.approvers, DEFAULT_APPROVERS)
        }
      }
    }
  )
})

const policyIssues = (input: unknown) => {
  const result = Schema.decodeUnknownResult(SpendPolicy)(input, { errors: "all" })
  if (Result.isSuccess(result)) return assert.fail(`expected ${JSON.stringify(input)} to be rejected`)
  return SchemaIssue.makeFormatterStandardSchemaV1()(result.failure.issue).issues.map((issue) => ({
    path: issue.path?.map((segment) => (typeof segment === "object" ? segment.key : segment)),
    message: issue.message
  }))
}

describe("SpendPolicy schema: new merchants and hours", () => {
  it("decodes the new fields", () => {
    const policy: SpendPolicy = { reviewNewMerchants: true, allowedHours: parisMornings, outsideHours: "approval" }
    assert.deepStrictEqual(Schema.decodeUnknownSync(SpendPolicy)(policy), policy)
  })

  it("rejects bad values, naming the field", () => {
    assert.deepStrictEqual(
      policyIssues({ outsideHours: "maybe" }).map((i) => i.path),
      [["outsideHours"]]
    )
    assert.deepStrictEqual(
      policyIssues({ reviewNewMerchants: "yes" }).map((i) => i.path),
      [["reviewNewMerchants"]]
    )
    assert.deepStrictEqual(policyIssues({ allowedHours: { ...parisMornings, timezone: "Paris" } }), [
      {
        path: ["allowedHours", "timezone"],
        message: 'expected an IANA time zone name such as "Europe/Paris" or "UTC"'
      },
      { path: ["allowedHours", "timezone"], message: 'unknown IANA time zone "Paris"' }
    ])
  })
})

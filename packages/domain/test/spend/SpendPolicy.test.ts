import { assert, describe, it } from "@effect/vitest"
import { Result, Schema, SchemaIssue } from "effect"
import {
  ApprovalTtlSeconds,
  approvalExpiresAt,
  CategorySlug,
  DEFAULT_APPROVAL_TTL_SECONDS,
  DecisionReasonCode,
  effectivePolicy,
  evaluateSpend,
  MerchantName,
  nextUtcDayStart,
  nextUtcMonthStart,
  SpendDecision,
  type SpendEvaluationInput,
  SpendPolicy,
  utcDayStart,
  utcMonthStart
} from "../../src/spend/SpendPolicy.ts"

const base: SpendEvaluationInput = {
  policy: {},
  amount: 1000,
  merchant: { name: "Acme Cloud", category: "software" },
  spentToday: 0,
  spentThisMonth: 0,
  available: 1_000_000
}

const evaluate = (overrides: Partial<SpendEvaluationInput>) => evaluateSpend({ ...base, ...overrides })

const codes = (overrides: Partial<SpendEvaluationInput>) => evaluate(overrides).reasons.map((r) => r.code)

const ms = (iso: string) => Date.parse(iso)

const iso = (millis: number) => new Date(millis).toISOString()

const decodeIssues = (input: unknown) => {
  const result = Schema.decodeUnknownResult(SpendPolicy)(input, { errors: "all" })
  if (Result.isSuccess(result)) return assert.fail(`expected ${JSON.stringify(input)} to be rejected`)
  return SchemaIssue.makeFormatterStandardSchemaV1()(result.failure.issue).issues.map((issue) => ({
    path: issue.path?.map((segment) => (typeof segment === "object" ? segment.key : segment)),
    message: issue.message
  }))
}

const decodes = (input: unknown) => Result.isSuccess(Schema.decodeUnknownResult(SpendPolicy)(input))

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
        reasons: [{ code: "approval_threshold", message: "amount 5000 is at or above the approval threshold 5000" }]
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

  const PropAmount = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 1_000_000_000_000 }))
  const PropPositive = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 1_000_000_000_000 }))

  it.prop(
    "never approves when amount > available",
    {
      policy: SpendPolicy,
      available: PropAmount,
      excess: PropPositive,
      spentToday: PropAmount,
      spentThisMonth: PropAmount,
      name: MerchantName,
      category: Schema.UndefinedOr(CategorySlug)
    },
    ({ policy, available, excess, spentToday, spentThisMonth, name, category }) => {
      const decision = evaluateSpend({
        policy,
        amount: available + excess,
        merchant: { name, category },
        spentToday,
        spentThisMonth,
        available
      })
      assert.strictEqual(decision.outcome, "denied")
      assert.isTrue(decision.reasons.some((r) => r.code === "insufficient_funds"))
    }
  )

  it.prop(
    "outcome and reasons are always consistent",
    {
      policy: SpendPolicy,
      amount: PropAmount,
      available: PropAmount,
      spentToday: PropAmount,
      spentThisMonth: PropAmount,
      name: MerchantName,
      category: Schema.UndefinedOr(CategorySlug)
    },
    ({ policy, amount, available, spentToday, spentThisMonth, name, category }) => {
      const decision = evaluateSpend({
        policy,
        amount,
        merchant: { name, category },
        spentToday,
        spentThisMonth,
        available
      })
      const reasonCodes = decision.reasons.map((r) => r.code)
      assert.isTrue(Schema.is(SpendDecision)(decision))
      assert.strictEqual(new Set(reasonCodes).size, reasonCodes.length)
      if (decision.outcome === "approved") assert.deepStrictEqual(reasonCodes, [])
      if (decision.outcome === "pending_approval") assert.deepStrictEqual(reasonCodes, ["approval_threshold"])
      if (decision.outcome === "denied") {
        assert.isAbove(reasonCodes.length, 0)
        assert.notInclude(reasonCodes, "approval_threshold")
      }
    }
  )
})

describe("effectivePolicy", () => {
  it("fills fields the key is silent on from team defaults", () => {
    const merged = effectivePolicy(
      { perRequestLimit: 1000, blockedMerchants: ["Key Blocked"] },
      { perRequestLimit: 5000, dailyBudget: 20_000, blockedMerchants: ["Team Blocked"], approvalTtlSeconds: 3600 }
    )
    assert.deepStrictEqual(merged, {
      perRequestLimit: 1000,
      dailyBudget: 20_000,
      blockedMerchants: ["Key Blocked"],
      approvalTtlSeconds: 3600
    })
  })

  it("keeps a key's explicit empty list over the team's list", () => {
    assert.deepStrictEqual(effectivePolicy({ allowedCategories: [] }, { allowedCategories: ["travel"] }), {
      allowedCategories: []
    })
  })

  it("keeps a key's zero over the team's value", () => {
    assert.deepStrictEqual(effectivePolicy({ approvalThreshold: 0 }, { approvalThreshold: 10_000 }), {
      approvalThreshold: 0
    })
  })

  it("returns the team defaults for a silent key and the key for silent defaults", () => {
    const team = { monthlyBudget: 100_000, allowedMerchants: ["Acme"] }
    assert.deepStrictEqual(effectivePolicy({}, team), team)
    assert.deepStrictEqual(effectivePolicy(team, {}), team)
    assert.deepStrictEqual(effectivePolicy({}, {}), {})
  })

  it("does not mutate its inputs", () => {
    const key = { perRequestLimit: 1 }
    const team = { dailyBudget: 2 }
    effectivePolicy(key, team)
    assert.deepStrictEqual(key, { perRequestLimit: 1 })
    assert.deepStrictEqual(team, { dailyBudget: 2 })
  })

  it("feeds evaluateSpend so team rules apply to silent keys", () => {
    const policy = effectivePolicy(
      { perRequestLimit: 10_000 },
      { blockedCategories: ["software"], perRequestLimit: 10 }
    )
    assert.deepStrictEqual(codes({ policy }), ["category_blocked"])
  })
})

describe("UTC budget windows", () => {
  it("puts 23:59:59.999 on the last day of a month in that day and month", () => {
    const t = ms("2024-01-31T23:59:59.999Z")
    assert.strictEqual(iso(utcDayStart(t)), "2024-01-31T00:00:00.000Z")
    assert.strictEqual(iso(nextUtcDayStart(t)), "2024-02-01T00:00:00.000Z")
    assert.strictEqual(iso(utcMonthStart(t)), "2024-01-01T00:00:00.000Z")
    assert.strictEqual(iso(nextUtcMonthStart(t)), "2024-02-01T00:00:00.000Z")
  })

  it("puts 00:00:00.000 on the first of a month in the new day and month", () => {
    const t = ms("2024-02-01T00:00:00.000Z")
    assert.strictEqual(utcDayStart(t), t)
    assert.strictEqual(utcMonthStart(t), t)
    assert.strictEqual(iso(nextUtcDayStart(t)), "2024-02-02T00:00:00.000Z")
    assert.strictEqual(iso(nextUtcMonthStart(t)), "2024-03-01T00:00:00.000Z")
  })

  it("handles the leap day", () => {
    const leapDay = ms("2024-02-29T12:34:56.789Z")
    assert.strictEqual(iso(utcDayStart(leapDay)), "2024-02-29T00:00:00.000Z")
    assert.strictEqual(iso(nextUtcDayStart(leapDay)), "2024-03-01T00:00:00.000Z")
    assert.strictEqual(iso(utcMonthStart(leapDay)), "2024-02-01T00:00:00.000Z")
    assert.strictEqual(iso(nextUtcMonthStart(leapDay)), "2024-03-01T00:00:00.000Z")
    assert.strictEqual(iso(nextUtcDayStart(ms("2024-02-28T23:59:59.999Z"))), "2024-02-29T00:00:00.000Z")
    assert.strictEqual(iso(nextUtcDayStart(ms("2023-02-28T23:59:59.999Z"))), "2023-03-01T00:00:00.000Z")
    assert.strictEqual(iso(utcMonthStart(ms("2024-02-29T23:59:59.999Z"))), "2024-02-01T00:00:00.000Z")
  })

  it("rolls over the year", () => {
    const t = ms("2024-12-31T23:59:59.999Z")
    assert.strictEqual(iso(nextUtcDayStart(t)), "2025-01-01T00:00:00.000Z")
    assert.strictEqual(iso(utcMonthStart(t)), "2024-12-01T00:00:00.000Z")
    assert.strictEqual(iso(nextUtcMonthStart(t)), "2025-01-01T00:00:00.000Z")
  })

  it("handles instants before the epoch and two-digit years", () => {
    assert.strictEqual(iso(utcDayStart(ms("1969-12-31T12:00:00.000Z"))), "1969-12-31T00:00:00.000Z")
    assert.strictEqual(iso(utcDayStart(-1)), "1969-12-31T00:00:00.000Z")
    assert.strictEqual(iso(utcMonthStart(ms("0050-03-15T10:00:00.000Z"))), "0050-03-01T00:00:00.000Z")
    assert.strictEqual(iso(nextUtcMonthStart(ms("0099-12-15T10:00:00.000Z"))), "0100-01-01T00:00:00.000Z")
  })

  it("always brackets the instant: start <= t < next start", () => {
    const start = ms("2023-12-25T00:00:00.000Z")
    for (let t = start; t < start + 500 * 86_400_000; t += 7_777_777) {
      assert.isTrue(utcDayStart(t) <= t && t < nextUtcDayStart(t))
      assert.isTrue(utcMonthStart(t) <= t && t < nextUtcMonthStart(t))
      assert.strictEqual(nextUtcDayStart(t) - utcDayStart(t), 86_400_000)
      assert.strictEqual(new Date(utcMonthStart(t)).getUTCDate(), 1)
      assert.strictEqual(utcMonthStart(nextUtcMonthStart(t) - 1), utcMonthStart(t))
    }
  })
})

describe("approvalExpiresAt", () => {
  const createdAt = ms("2024-03-10T08:00:00.000Z")

  it("defaults to 24 hours", () => {
    assert.strictEqual(DEFAULT_APPROVAL_TTL_SECONDS, 86_400)
    assert.strictEqual(iso(approvalExpiresAt(createdAt, {})), "2024-03-11T08:00:00.000Z")
  })

  it("uses the policy's approvalTtlSeconds", () => {
    assert.strictEqual(iso(approvalExpiresAt(createdAt, { approvalTtlSeconds: 60 })), "2024-03-10T08:01:00.000Z")
    assert.strictEqual(iso(approvalExpiresAt(createdAt, { approvalTtlSeconds: 2_592_000 })), "2024-04-09T08:00:00.000Z")
  })
})

describe("SpendPolicy schema", () => {
  it("decodes an empty and a full policy", () => {
    assert.isTrue(decodes({}))
    const full = {
      perRequestLimit: 0,
      dailyBudget: 10_000,
      monthlyBudget: Number.MAX_SAFE_INTEGER,
      approvalThreshold: 5000,
      allowedCategories: ["software", "travel_agency", "web-3"],
      blockedCategories: [],
      allowedMerchants: ["Acme Cloud", "x".repeat(200)],
      blockedMerchants: Array.from({ length: 100 }, (_, i) => `m${i}`),
      approvalTtlSeconds: 3600
    }
    assert.deepStrictEqual(Schema.decodeUnknownSync(SpendPolicy)(full), full)
  })

  it("drops unknown keys", () => {
    assert.deepStrictEqual(Schema.decodeUnknownSync(SpendPolicy)({ dailyBudget: 1, extra: true }), { dailyBudget: 1 })
  })

  it("rejects negative amounts with the field path", () => {
    for (const field of ["perRequestLimit", "dailyBudget", "monthlyBudget", "approvalThreshold"]) {
      assert.deepStrictEqual(decodeIssues({ [field]: -1 }), [
        { path: [field], message: "expected a non-negative integer amount in minor units" }
      ])
    }
  })

  it("rejects fractional, unsafe and non-numeric amounts", () => {
    assert.deepStrictEqual(decodeIssues({ dailyBudget: 10.5 }), [
      { path: ["dailyBudget"], message: "Expected an integer" }
    ])
    assert.deepStrictEqual(
      decodeIssues({ monthlyBudget: Number.MAX_SAFE_INTEGER + 1 }).map((i) => i.path),
      [["monthlyBudget"], ["monthlyBudget"]]
    )
    assert.deepStrictEqual(
      decodeIssues({ perRequestLimit: "100" }).map((i) => i.path),
      [["perRequestLimit"]]
    )
    assert.isFalse(decodes({ approvalThreshold: Number.POSITIVE_INFINITY }))
    assert.isFalse(decodes({ approvalThreshold: Number.NaN }))
  })

  it("rejects non-slug categories with the element path", () => {
    const message = 'expected a lowercase slug (a-z, 0-9, single "-" or "_" separators), e.g. "software"'
    assert.deepStrictEqual(decodeIssues({ allowedCategories: ["software", "Travel"] }), [
      { path: ["allowedCategories", 1], message }
    ])
    for (const bad of ["", "a b", "-travel", "travel-", "a--b", "a_-b", "café", "TRAVEL"]) {
      assert.deepStrictEqual(decodeIssues({ blockedCategories: [bad] }), [{ path: ["blockedCategories", 0], message }])
    }
    for (const good of ["a", "software", "travel_agency", "web-3", "b2b-saas_tools"]) {
      assert.isTrue(Schema.is(CategorySlug)(good))
    }
  })

  it("rejects empty, blank, overlong and too many merchants", () => {
    assert.deepStrictEqual(decodeIssues({ blockedMerchants: ["ok", ""] }), [
      { path: ["blockedMerchants", 1], message: "expected a non-empty merchant name" },
      { path: ["blockedMerchants", 1], message: "expected a merchant name that is not only whitespace" }
    ])
    assert.deepStrictEqual(decodeIssues({ allowedMerchants: ["   "] }), [
      { path: ["allowedMerchants", 0], message: "expected a merchant name that is not only whitespace" }
    ])
    assert.deepStrictEqual(decodeIssues({ allowedMerchants: ["x".repeat(201)] }), [
      { path: ["allowedMerchants", 0], message: "expected a merchant name of at most 200 characters" }
    ])
    assert.deepStrictEqual(decodeIssues({ allowedMerchants: Array.from({ length: 101 }, (_, i) => `m${i}`) }), [
      { path: ["allowedMerchants"], message: "expected at most 100 merchants" }
    ])
  })

  it("enforces approvalTtlSeconds bounds", () => {
    const message = "expected an approval TTL between 60 and 2592000 seconds"
    assert.deepStrictEqual(decodeIssues({ approvalTtlSeconds: 59 }), [{ path: ["approvalTtlSeconds"], message }])
    assert.deepStrictEqual(decodeIssues({ approvalTtlSeconds: 2_592_001 }), [{ path: ["approvalTtlSeconds"], message }])
    assert.deepStrictEqual(decodeIssues({ approvalTtlSeconds: 90.5 }), [
      { path: ["approvalTtlSeconds"], message: "Expected an integer" }
    ])
    assert.isTrue(decodes({ approvalTtlSeconds: 60 }))
    assert.isTrue(decodes({ approvalTtlSeconds: 2_592_000 }))
    assert.isTrue(Schema.is(ApprovalTtlSeconds)(DEFAULT_APPROVAL_TTL_SECONDS))
  })

  it("reports every invalid field at once", () => {
    assert.deepStrictEqual(
      decodeIssues({
        perRequestLimit: -5,
        blockedCategories: ["ok", "Not Ok"],
        approvalTtlSeconds: 1,
        allowedMerchants: [""]
      }).map((i) => i.path),
      [
        ["perRequestLimit"],
        ["blockedCategories", 1],
        ["allowedMerchants", 0],
        ["allowedMerchants", 0],
        ["approvalTtlSeconds"]
      ]
    )
  })

  it("exposes its constraints in JSON Schema", () => {
    const { schema } = Schema.toJsonSchemaDocument(SpendPolicy)
    const json = JSON.stringify(schema)
    assert.include(json, '"pattern":"^[a-z0-9]+(?:[-_][a-z0-9]+)*$"')
    assert.include(json, '"minimum":60,"maximum":2592000')
    assert.include(json, `"type":"integer","minimum":0,"maximum":${Number.MAX_SAFE_INTEGER}`)
    assert.include(json, '"maxItems":100')
  })
})

describe("DecisionReasonCode", () => {
  it("accepts exactly the contract codes", () => {
    for (const code of [
      "merchant_blocked",
      "category_blocked",
      "amount_over_limit",
      "daily_budget_exceeded",
      "monthly_budget_exceeded",
      "insufficient_funds",
      "approval_threshold"
    ]) {
      assert.isTrue(Schema.is(DecisionReasonCode)(code))
    }
    assert.isFalse(Schema.is(DecisionReasonCode)("over_budget"))
  })

  it("SpendDecision rejects unknown outcomes", () => {
    assert.isFalse(Schema.is(SpendDecision)({ outcome: "expired", reasons: [] }))
  })
})

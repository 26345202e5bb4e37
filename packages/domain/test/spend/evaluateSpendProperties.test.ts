import { assert, describe, it } from "@effect/vitest"
import { Schema } from "effect"
import {
  CategorySlug,
  type DecisionReasonCode,
  evaluateSpend,
  MerchantName,
  SpendDecision,
  type SpendEvaluationInput,
  SpendPolicy
} from "../../src/spend/SpendPolicy.ts"

const CONTRACT_ORDER: ReadonlyArray<DecisionReasonCode> = [
  "merchant_blocked",
  "category_blocked",
  "outside_allowed_hours",
  "amount_over_limit",
  "daily_budget_exceeded",
  "monthly_budget_exceeded",
  "insufficient_funds"
]

const NOW = Date.parse("2024-03-13T12:00:00.000Z")

const APPROVAL_ORDER: ReadonlyArray<DecisionReasonCode> = [
  "outside_allowed_hours",
  "new_merchant",
  "approval_threshold"
]

const int = (minimum: number, maximum: number) => Schema.Int.check(Schema.isBetween({ minimum, maximum }))
const Amount = int(0, 1_000_000_000)
const Maybe = <S extends Schema.Top>(schema: S) => Schema.UndefinedOr(schema)

const Near = Maybe(int(-2, 2))

const Request = {
  policy: SpendPolicy,
  amount: Amount,
  spentToday: Amount,
  spentThisMonth: Amount,
  available: Amount,
  name: MerchantName,
  category: Maybe(CategorySlug),
  near: Schema.Tuple([Near, Near, Near, Near])
}

const inputOf = (r: Schema.Struct.Type<typeof Request>): SpendEvaluationInput => {
  const [limit, daily, monthly, funds] = r.near
  const around = (used: number, offset: number | undefined) =>
    offset === undefined ? undefined : Math.max(0, used + r.amount + offset)
  const edges = {
    perRequestLimit: around(0, limit),
    dailyBudget: around(r.spentToday, daily),
    monthlyBudget: around(r.spentThisMonth, monthly)
  }
  return {
    policy: {
      ...r.policy,
      ...Object.fromEntries(Object.entries(edges).filter(([, value]) => value !== undefined))
    },
    amount: r.amount,
    merchant: { name: r.name, category: r.category },
    spentToday: r.spentToday,
    spentThisMonth: r.spentThisMonth,
    available: around(0, funds) ?? r.available,
    now: NOW
  }
}

const limitsBroken = (input: SpendEvaluationInput): Array<DecisionReasonCode> => {
  const { policy, amount } = input
  const over = (limit: number | undefined, used: number) => limit !== undefined && used + amount > limit
  return [
    ...(over(policy.perRequestLimit, 0) ? (["amount_over_limit"] as const) : []),
    ...(over(policy.dailyBudget, input.spentToday) ? (["daily_budget_exceeded"] as const) : []),
    ...(over(policy.monthlyBudget, input.spentThisMonth) ? (["monthly_budget_exceeded"] as const) : []),
    ...(amount > input.available ? (["insufficient_funds"] as const) : [])
  ]
}

describe("evaluateSpend properties", () => {
  it.prop(
    "lists the deny rules that fired in contract order, each amount rule exactly when it is broken",
    Request,
    (r) => {
      const input = inputOf(r)
      const decision = evaluateSpend(input)
      const codes = decision.reasons.map((reason) => reason.code)
      const denials = decision.outcome === "denied" ? codes : []
      assert.deepStrictEqual(
        denials,
        CONTRACT_ORDER.filter((code) => codes.includes(code))
      )
      assert.deepStrictEqual(
        denials.filter(
          (code) => code !== "merchant_blocked" && code !== "category_blocked" && code !== "outside_allowed_hours"
        ),
        limitsBroken(input)
      )
    }
  )

  it.prop("never approves nor sends for approval an amount over any limit, budget or the funds", Request, (r) => {
    const input = inputOf(r)
    const decision = evaluateSpend(input)
    if (limitsBroken(input).length > 0) assert.strictEqual(decision.outcome, "denied")
  })

  it.prop(
    "approves, with no reasons, a spend within every limit and budget from an allowed merchant and category below the threshold",
    {
      amount: Amount,
      spentToday: Amount,
      spentThisMonth: Amount,
      slack: Schema.Tuple([Amount, Amount, Amount, Amount, Amount]),
      set: Schema.Array(Schema.Boolean).check(Schema.isBetweenLength(7, 7)),
      name: MerchantName,
      category: CategorySlug
    },
    ({ amount, spentToday, spentThisMonth, slack, set, name, category }) => {
      const [limit, daily, monthly, funds, threshold] = slack
      const policy: SpendPolicy = {
        ...(set[0] ? { perRequestLimit: amount + limit } : {}),
        ...(set[1] ? { dailyBudget: spentToday + amount + daily } : {}),
        ...(set[2] ? { monthlyBudget: spentThisMonth + amount + monthly } : {}),
        ...(set[3] ? { approvalThreshold: amount + 1 + threshold } : {}),
        ...(set[4] ? { allowedMerchants: ["Someone Else", ` ${name} `] } : {}),
        ...(set[5] ? { allowedCategories: [category] } : {}),
        ...(set[6] ? { blockedMerchants: [`${name}x`], blockedCategories: [`${category}x`] } : {})
      }
      const decision = evaluateSpend({
        policy,
        amount,
        merchant: { name, category },
        spentToday,
        spentThisMonth,
        available: amount + funds,
        now: NOW
      })
      assert.deepStrictEqual(decision, { outcome: "approved", reasons: [] })
    }
  )

  const Day = Schema.Array(Schema.Struct({ amount: int(1, 4_000), newDay: Schema.Boolean }))

  it.prop(
    "requests decided one after another never take more than the daily or the monthly budget",
    {
      daily: int(0, 20_000),
      monthly: int(0, 50_000),
      threshold: Maybe(int(0, 4_000)),
      requests: Day
    },
    ({ daily, monthly, threshold, requests }) => {
      const policy: SpendPolicy = {
        dailyBudget: daily,
        monthlyBudget: monthly,
        ...(threshold === undefined ? {} : { approvalThreshold: threshold })
      }
      let today = 0
      let month = 0
      for (const { amount, newDay } of requests) {
        if (newDay) today = 0
        const decision = evaluateSpend({
          policy,
          amount,
          merchant: { name: "Acme" },
          spentToday: today,
          spentThisMonth: month,
          available: Number.MAX_SAFE_INTEGER,
          now: NOW
        })
        const fits = today + amount <= daily && month + amount <= monthly
        assert.strictEqual(decision.outcome !== "denied", fits, `${amount} after ${today} today, ${month} this month`)
        if (decision.outcome === "denied") continue
        today += amount
        month += amount
        assert.isAtMost(today, daily)
        assert.isAtMost(month, monthly)
      }
    }
  )

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
        available,
        now: NOW
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
        available,
        now: NOW
      })
      const reasonCodes = decision.reasons.map((r) => r.code)
      assert.isTrue(Schema.is(SpendDecision)(decision))
      assert.strictEqual(new Set(reasonCodes).size, reasonCodes.length)
      if (decision.outcome === "approved") assert.deepStrictEqual(reasonCodes, [])
      if (decision.outcome === "pending_approval") {
        assert.isAbove(reasonCodes.length, 0)
        assert.deepStrictEqual(
          reasonCodes,
          APPROVAL_ORDER.filter((code) => reasonCodes.includes(code))
        )
      }
      if (decision.outcome === "denied") {
        assert.isAbove(reasonCodes.length, 0)
        assert.notInclude(reasonCodes, "approval_threshold")
        assert.notInclude(reasonCodes, "new_merchant")
      }
    }
  )
})

import { assert, describe, it } from "@effect/vitest"
import { Schema } from "effect"
import {
  BUDGET_INTERVALS,
  BudgetInterval,
  CategorySlug,
  type DecisionReason,
  DecisionReasonCode,
  evaluateSpend,
  MerchantName,
  NO_USAGE,
  periodStart,
  SpendDecision,
  type SpendEvaluationInput,
  SpendPolicy,
  type UsageTotals
} from "../../src/spend/model.ts"

/** The contract order: the literals of `DecisionReasonCode` as declared. */
const CONTRACT_ORDER: ReadonlyArray<DecisionReasonCode> = DecisionReasonCode.literals

const HOUR = 3_600_000
const int = (minimum: number, maximum: number) => Schema.Int.check(Schema.isBetween({ minimum, maximum }))
const Amount = int(0, 1_000_000_000)
const Maybe = <S extends Schema.Top>(schema: S) => Schema.UndefinedOr(schema)
const Near = Maybe(int(-2, 2))
const Totals = Schema.Struct({ day: Amount, week: Amount, month: Amount, year: Amount, lifetime: Amount })

/** A moment between 2001 and 2100 (epoch millis). */
const Moment = int(978_307_200_000, 4_102_444_800_000)

const BUDGET_FIELDS = {
  day: "dailyBudget",
  week: "weeklyBudget",
  month: "monthlyBudget",
  year: "yearlyBudget",
  lifetime: "lifetimeBudget"
} as const satisfies Record<BudgetInterval, keyof SpendPolicy>

const BUDGET_CODES = {
  day: "daily_budget_exceeded",
  week: "weekly_budget_exceeded",
  month: "monthly_budget_exceeded",
  year: "yearly_budget_exceeded",
  lifetime: "lifetime_budget_exceeded"
} as const satisfies Record<BudgetInterval, DecisionReasonCode>

const Request = {
  policy: SpendPolicy,
  amount: Amount,
  now: Moment,
  spent: Totals,
  categorySpent: Totals,
  /** Ages of the recent requests (millis before now; some older than the hour). */
  ages: Schema.Array(int(0, 2 * HOUR)).check(Schema.isMaxLength(12)),
  requestsToday: int(0, 12),
  available: Amount,
  name: MerchantName,
  category: Maybe(CategorySlug),
  /** Moves the limit, each budget and the funds to a boundary around what the request needs, or leaves them. */
  near: Schema.Tuple([Near, Near, Near, Near, Near, Near, Near])
}

const inputOf = (r: Schema.Struct.Type<typeof Request>): SpendEvaluationInput => {
  const [limit, day, week, month, year, lifetime, funds] = r.near
  const around = (used: number, offset: number | undefined) =>
    offset === undefined ? undefined : Math.max(0, used + r.amount + offset)
  const edges = {
    perRequestLimit: around(0, limit),
    dailyBudget: around(r.spent.day, day),
    weeklyBudget: around(r.spent.week, week),
    monthlyBudget: around(r.spent.month, month),
    yearlyBudget: around(r.spent.year, year),
    lifetimeBudget: around(r.spent.lifetime, lifetime)
  }
  // The merchant-review and allowed-hours rules have properties of their own (merchantsHours.test.ts).
  const { reviewNewMerchants: _review, allowedHours: _hours, outsideHours: _outside, ...policy } = r.policy
  return {
    policy: {
      ...policy,
      ...Object.fromEntries(Object.entries(edges).filter(([, value]) => value !== undefined))
    },
    amount: r.amount,
    merchant: { name: r.name, category: r.category },
    now: r.now,
    spent: r.spent,
    categorySpent: r.category === undefined ? NO_USAGE : r.categorySpent,
    recentRequests: r.ages.map((age) => r.now - age),
    requestsToday: r.requestsToday,
    available: around(0, funds) ?? r.available
  }
}

/** The deny rules after the merchant and category lists that `input` breaks, by a model of the contract. */
const limitsBroken = (input: SpendEvaluationInput): Array<readonly [DecisionReasonCode, string?]> => {
  const { policy, amount } = input
  const over = (limit: number | undefined, used: number) => limit !== undefined && used + amount > limit
  const lastHour = input.recentRequests.filter((at) => at > input.now - HOUR).length
  const category = input.merchant.category
  return [
    ...(over(policy.perRequestLimit, 0) ? [["amount_over_limit"] as const] : []),
    ...(policy.maxRequestsPerHour !== undefined && lastHour >= policy.maxRequestsPerHour
      ? [["velocity_exceeded", "hour"] as const]
      : []),
    ...(policy.maxRequestsPerDay !== undefined && input.requestsToday >= policy.maxRequestsPerDay
      ? [["velocity_exceeded", "day"] as const]
      : []),
    ...BUDGET_INTERVALS.flatMap((interval) =>
      over(policy[BUDGET_FIELDS[interval]], input.spent[interval]) ? [[BUDGET_CODES[interval], interval] as const] : []
    ),
    ...BUDGET_INTERVALS.flatMap((interval) =>
      (policy.categoryBudgets ?? []).some(
        (b) => b.category === category && b.interval === interval && over(b.amount, input.categorySpent[interval])
      )
        ? [["category_budget_exceeded", interval] as const]
        : []
    ),
    ...(amount > input.available ? [["insufficient_funds"] as const] : [])
  ]
}

const shapeOf = (reason: DecisionReason) =>
  reason.code === "amount_over_limit" || reason.code === "insufficient_funds"
    ? ([reason.code] as const)
    : ([reason.code, reason.interval] as const)

describe("evaluateSpend properties", () => {
  it.prop(
    "lists the deny rules that fired in contract order, each limit, budget and velocity rule exactly when it is broken",
    Request,
    (r) => {
      const input = inputOf(r)
      const reasons = evaluateSpend(input).reasons
      const codes = reasons.map((reason) => reason.code)
      const denials = codes.filter((code) => code !== "approval_threshold")
      assert.deepStrictEqual(
        denials.filter((code, i) => denials.indexOf(code) === i),
        CONTRACT_ORDER.filter((code) => codes.includes(code) && code !== "approval_threshold")
      )
      const limitReasons = reasons.filter(
        (reason) =>
          reason.code !== "merchant_blocked" &&
          reason.code !== "category_blocked" &&
          reason.code !== "approval_threshold"
      )
      assert.deepStrictEqual(
        limitReasons.map((reason) => JSON.stringify(shapeOf(reason))),
        limitsBroken(input).map((broken) => JSON.stringify(broken))
      )
    }
  )

  it.prop(
    "never approves nor sends for approval a request over any limit, budget, velocity or the funds",
    Request,
    (r) => {
      const input = inputOf(r)
      if (limitsBroken(input).length > 0) assert.strictEqual(evaluateSpend(input).outcome, "denied")
    }
  )

  it.prop(
    "gives every budget reason figures that add up: remaining = max(0, limit - used), never below 0",
    Request,
    (r) => {
      for (const reason of evaluateSpend(inputOf(r)).reasons) {
        if (reason.code.endsWith("_budget_exceeded")) {
          assert.isDefined(reason.limit)
          assert.isDefined(reason.used)
          assert.strictEqual(reason.requested, r.amount)
          assert.strictEqual(reason.remaining, Math.max(0, (reason.limit ?? 0) - (reason.used ?? 0)))
          assert.isAbove((reason.used ?? 0) + r.amount, reason.limit ?? 0)
          assert.strictEqual(reason.resetsAt === undefined, reason.interval === "lifetime")
        }
        if (reason.code === "velocity_exceeded") assert.strictEqual(reason.remaining, 0)
      }
    }
  )

  it.prop(
    "approves, with no reasons, a spend within every limit, budget and velocity limit from an allowed merchant below the threshold",
    {
      amount: Amount,
      spent: Totals,
      slack: Schema.Tuple([Amount, Amount, Amount, Amount, Amount]),
      set: Schema.Array(Schema.Boolean).check(Schema.isBetweenLength(11, 11)),
      name: MerchantName,
      category: CategorySlug
    },
    ({ amount, spent, slack, set, name, category }) => {
      const [limit, budget, funds, threshold, requests] = slack
      const policy: SpendPolicy = {
        ...(set[0] ? { perRequestLimit: amount + limit } : {}),
        ...(set[1] ? { dailyBudget: spent.day + amount + budget } : {}),
        ...(set[2] ? { weeklyBudget: spent.week + amount + budget } : {}),
        ...(set[3] ? { monthlyBudget: spent.month + amount + budget } : {}),
        ...(set[4] ? { yearlyBudget: spent.year + amount + budget, lifetimeBudget: spent.lifetime + amount } : {}),
        ...(set[5] ? { approvalThreshold: amount + 1 + threshold } : {}),
        ...(set[6] ? { allowedMerchants: ["Someone Else", ` ${name} `] } : {}),
        ...(set[7] ? { allowedCategories: [category] } : {}),
        ...(set[8] ? { blockedMerchants: [`${name}x`], blockedCategories: [`${category}x`] } : {}),
        ...(set[9]
          ? { categoryBudgets: [{ category, interval: "month" as const, amount: spent.month + amount + budget }] }
          : {}),
        ...(set[10] ? { maxRequestsPerHour: 3 + (requests % 5), maxRequestsPerDay: 3 } : {})
      }
      const decision = evaluateSpend({
        policy,
        amount,
        merchant: { name, category },
        now: Date.parse("2026-11-18T12:00:00Z"),
        spent,
        categorySpent: spent,
        recentRequests: [Date.parse("2026-11-18T11:00:00Z"), Date.parse("2026-11-18T11:59:00Z")],
        requestsToday: 2,
        available: amount + funds
      })
      assert.deepStrictEqual(decision, { outcome: "approved", reasons: [] })
    }
  )

  const Requests = Schema.Array(
    Schema.Struct({
      amount: int(1, 4_000),
      /** How long after the previous request this one comes (millis, up to about 40 days). */
      after: int(0, 3_500_000_000),
      travel: Schema.Boolean
    })
  ).check(Schema.isMaxLength(60))

  it.prop(
    "requests decided one after another, over days, weeks, months and years, never take more than any budget",
    {
      budgets: Schema.Tuple([int(0, 20_000), int(0, 40_000), int(0, 60_000), int(0, 200_000), int(0, 300_000)]),
      travel: Schema.Tuple([BudgetInterval, int(0, 30_000)]),
      threshold: Maybe(int(0, 4_000)),
      start: Moment,
      requests: Requests
    },
    ({ budgets: [day, week, month, year, lifetime], travel, threshold, start, requests }) => {
      const policy: SpendPolicy = {
        dailyBudget: day,
        weeklyBudget: week,
        monthlyBudget: month,
        yearlyBudget: year,
        lifetimeBudget: lifetime,
        categoryBudgets: [{ category: "travel", interval: travel[0], amount: travel[1] }],
        ...(threshold === undefined ? {} : { approvalThreshold: threshold })
      }
      const limits: UsageTotals = { day, week, month, year, lifetime }
      /** Approved and pending spend per period start, of the credential and of travel. */
      const totals = new Map<string, number>()
      const totalOf = (scope: string, interval: BudgetInterval, at: number) =>
        totals.get(`${scope}|${interval}|${periodStart(interval, at)}`) ?? 0
      const usageAt = (scope: string, at: number): UsageTotals => ({
        day: totalOf(scope, "day", at),
        week: totalOf(scope, "week", at),
        month: totalOf(scope, "month", at),
        year: totalOf(scope, "year", at),
        lifetime: totalOf(scope, "lifetime", at)
      })
      let now = start
      for (const request of requests) {
        now += request.after
        const decision = evaluateSpend({
          policy,
          amount: request.amount,
          merchant: { name: "Acme", category: request.travel ? "travel" : "software" },
          now,
          spent: usageAt("", now),
          categorySpent: request.travel ? usageAt("travel", now) : NO_USAGE,
          recentRequests: [],
          requestsToday: 0,
          available: Number.MAX_SAFE_INTEGER
        })
        if (decision.outcome === "denied") continue
        for (const scope of request.travel ? ["", "travel"] : [""]) {
          for (const interval of BUDGET_INTERVALS) {
            const key = `${scope}|${interval}|${periodStart(interval, now)}`
            totals.set(key, (totals.get(key) ?? 0) + request.amount)
          }
        }
        for (const interval of BUDGET_INTERVALS) {
          assert.isAtMost(totalOf("", interval, now), limits[interval])
          assert.isAtLeast(limits[interval] - totalOf("", interval, now), 0)
        }
        assert.isAtMost(totalOf("travel", travel[0], now), travel[1])
      }
    }
  )

  it.prop(
    "requests decided one after another never count more than maxRequestsPerHour in any rolling hour, nor maxRequestsPerDay in a UTC day",
    {
      perHour: int(0, 6),
      perDay: Maybe(int(0, 15)),
      start: Moment,
      gaps: Schema.Array(int(0, 40 * 60_000)).check(Schema.isMaxLength(80))
    },
    ({ perHour, perDay, start, gaps }) => {
      const policy: SpendPolicy = {
        maxRequestsPerHour: perHour,
        ...(perDay === undefined ? {} : { maxRequestsPerDay: perDay })
      }
      const counted: Array<number> = []
      let now = start
      for (const gap of gaps) {
        now += gap
        const day = periodStart("day", now)
        const decision = evaluateSpend({
          policy,
          amount: 1,
          merchant: { name: "Acme" },
          now,
          spent: NO_USAGE,
          categorySpent: NO_USAGE,
          recentRequests: counted,
          requestsToday: counted.filter((at) => periodStart("day", at) === day).length,
          available: 1
        })
        const inHour = counted.filter((at) => at > now - HOUR).length
        if (decision.outcome === "denied") {
          const hourly = decision.reasons.find((r) => r.interval === "hour")
          if (hourly?.nextAllowedAt !== undefined) {
            const next = Date.parse(hourly.nextAllowedAt)
            assert.isAbove(next, now)
            assert.isBelow(counted.filter((at) => at > next - HOUR).length, perHour)
          }
          continue
        }
        assert.isBelow(inHour, perHour)
        counted.push(now)
        assert.isAtMost(counted.filter((at) => at > now - HOUR).length, perHour)
        if (perDay !== undefined) assert.isAtMost(counted.filter((at) => periodStart("day", at) === day).length, perDay)
      }
    }
  )

  const PropAmount = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 1_000_000_000_000 }))
  const PropPositive = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 1_000_000_000_000 }))

  it.prop(
    "never approves when amount > available",
    { r: Schema.Struct(Request), available: PropAmount, excess: PropPositive },
    ({ r, available, excess }) => {
      const decision = evaluateSpend({ ...inputOf(r), amount: available + excess, available })
      assert.strictEqual(decision.outcome, "denied")
      assert.isTrue(decision.reasons.some((reason) => reason.code === "insufficient_funds"))
    }
  )

  it.prop("outcome and reasons are always consistent", Request, (r) => {
    const decision = evaluateSpend(inputOf(r))
    const shapes = decision.reasons.map((reason) => JSON.stringify([reason.code, reason.interval, reason.category]))
    const reasonCodes = decision.reasons.map((reason) => reason.code)
    assert.isTrue(Schema.is(SpendDecision)(decision))
    assert.strictEqual(new Set(shapes).size, shapes.length)
    if (decision.outcome === "approved") assert.deepStrictEqual(reasonCodes, [])
    if (decision.outcome === "pending_approval") assert.deepStrictEqual(reasonCodes, ["approval_threshold"])
    if (decision.outcome === "denied") {
      assert.isAbove(reasonCodes.length, 0)
      assert.notInclude(reasonCodes, "approval_threshold")
    }
  })
})

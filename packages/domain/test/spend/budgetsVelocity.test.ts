import { assert, describe, it } from "@effect/vitest"
import { Schema } from "effect"
import { nextPeriodStart, periodStart, SpendPolicy, utcWeekStart, utcYearStart } from "../../src/spend/model.ts"
import { usageWindows } from "../../src/spend/SpendRequest.ts"
import { codes, evaluate, NOW, spentOf } from "./SpendPolicySetup.ts"

const HOUR = 3_600_000
const iso = (millis: number) => new Date(millis).toISOString()

describe("budget intervals", () => {
  const cases = [
    ["week", "weeklyBudget", "weekly_budget_exceeded", "weekly", "2026-11-23T00:00:00.000Z"],
    ["year", "yearlyBudget", "yearly_budget_exceeded", "yearly", "2027-01-01T00:00:00.000Z"],
    ["lifetime", "lifetimeBudget", "lifetime_budget_exceeded", "lifetime", undefined]
  ] as const
  for (const [interval, field, code, label, resetsAt] of cases) {
    it(`denies ${code} with its figures${resetsAt === undefined ? " and no reset" : ` and the reset ${resetsAt}`}`, () => {
      const decision = evaluate({ amount: 300, spent: spentOf({ [interval]: 800 }), policy: { [field]: 1000 } })
      assert.deepStrictEqual(decision, {
        outcome: "denied",
        reasons: [
          {
            code,
            message: `${label} spend 800 plus amount 300 is 1100, which exceeds the ${label} budget 1000`,
            limit: 1000,
            used: 800,
            requested: 300,
            remaining: 200,
            interval,
            ...(resetsAt === undefined ? {} : { resetsAt })
          }
        ]
      })
    })

    it(`approves spent + amount == the ${label} budget and counts only its own interval`, () => {
      assert.strictEqual(
        evaluate({ amount: 200, spent: spentOf({ [interval]: 800 }), policy: { [field]: 1000 } }).outcome,
        "approved"
      )
      assert.strictEqual(
        evaluate({ amount: 200, spent: spentOf({ day: 5000, month: 5000 }), policy: { [field]: 1000 } }).outcome,
        "approved"
      )
    })
  }

  it("reports remaining 0, never negative, when the period is already over its budget", () => {
    const [reason] = evaluate({ amount: 1, spent: spentOf({ week: 1500 }), policy: { weeklyBudget: 1000 } }).reasons
    assert.strictEqual(reason?.remaining, 0)
  })

  it("reports every budget that fired, day, week, month, year, lifetime in that order", () => {
    assert.deepStrictEqual(
      codes({
        amount: 100,
        spent: spentOf({ day: 1000, week: 1000, month: 1000, year: 1000, lifetime: 1000 }),
        policy: { lifetimeBudget: 1000, yearlyBudget: 1000, monthlyBudget: 1000, weeklyBudget: 1000, dailyBudget: 1000 }
      }),
      [
        "daily_budget_exceeded",
        "weekly_budget_exceeded",
        "monthly_budget_exceeded",
        "yearly_budget_exceeded",
        "lifetime_budget_exceeded"
      ]
    )
  })
})

describe("category budgets", () => {
  const travel = { categoryBudgets: [{ category: "travel", interval: "month", amount: 50_000 }] } as const

  it("denies category_budget_exceeded on the request's category total, naming the category", () => {
    const decision = evaluate({
      amount: 2000,
      merchant: { name: "Air", category: "travel" },
      categorySpent: spentOf({ month: 49_000 }),
      policy: travel
    })
    assert.deepStrictEqual(decision.reasons, [
      {
        code: "category_budget_exceeded",
        message:
          'monthly "travel" spend 49000 plus amount 2000 is 51000, which exceeds the monthly "travel" budget 50000',
        limit: 50_000,
        used: 49_000,
        requested: 2000,
        remaining: 1000,
        interval: "month",
        category: "travel",
        resetsAt: "2026-12-01T00:00:00.000Z"
      }
    ])
  })

  it("matches the request's category trimmed and in lower case", () => {
    assert.deepStrictEqual(
      codes({
        amount: 2000,
        merchant: { name: "Air", category: " Travel " },
        categorySpent: spentOf({ month: 49_000 }),
        policy: travel
      }),
      ["category_budget_exceeded"]
    )
  })

  it("leaves requests of other categories and without one to the other rules", () => {
    const spent = { categorySpent: spentOf({ month: 49_999 }), amount: 2000, policy: travel }
    assert.strictEqual(evaluate({ ...spent, merchant: { name: "Acme", category: "software" } }).outcome, "approved")
    assert.strictEqual(evaluate({ ...spent, merchant: { name: "Acme" } }).outcome, "approved")
  })

  it("approves up to the category budget exactly", () => {
    assert.strictEqual(
      evaluate({
        amount: 1000,
        merchant: { name: "Air", category: "travel" },
        categorySpent: spentOf({ month: 49_000 }),
        policy: travel
      }).outcome,
      "approved"
    )
  })

  it("reports each interval of the category that fired, after the credential's budgets, in interval order", () => {
    const decision = evaluate({
      amount: 100,
      merchant: { name: "Air", category: "travel" },
      spent: spentOf({ day: 1000 }),
      categorySpent: spentOf({ day: 1000, year: 1000 }),
      policy: {
        dailyBudget: 1000,
        categoryBudgets: [
          { category: "travel", interval: "year", amount: 1000 },
          { category: "software", interval: "day", amount: 0 },
          { category: "travel", interval: "day", amount: 1000 }
        ]
      }
    })
    assert.deepStrictEqual(
      decision.reasons.map((r) => [r.code, r.interval, r.category]),
      [
        ["daily_budget_exceeded", "day", undefined],
        ["category_budget_exceeded", "day", "travel"],
        ["category_budget_exceeded", "year", "travel"]
      ]
    )
  })
})

describe("velocity limits", () => {
  it("denies velocity_exceeded once the rolling hour holds the limit, with the time the oldest of them leaves it", () => {
    const times = [NOW - 10 * 60_000, NOW - 30 * 60_000, NOW - 50 * 60_000]
    const decision = evaluate({ recentRequests: times, policy: { maxRequestsPerHour: 3 } })
    assert.deepStrictEqual(decision, {
      outcome: "denied",
      reasons: [
        {
          code: "velocity_exceeded",
          message: "3 requests in the last hour reach the limit of 3 requests per hour",
          limit: 3,
          used: 3,
          requested: 1,
          remaining: 0,
          interval: "hour",
          nextAllowedAt: iso(NOW + 10 * 60_000)
        }
      ]
    })
  })

  it("names the moment the limit-th most recent request leaves the hour, in any order the times come", () => {
    const times = [NOW - 5 * 60_000, NOW - 59 * 60_000, NOW - 20 * 60_000, NOW - 40 * 60_000]
    const [reason] = evaluate({ recentRequests: times, policy: { maxRequestsPerHour: 2 } }).reasons
    assert.strictEqual(reason?.nextAllowedAt, iso(NOW - 20 * 60_000 + HOUR))
    assert.strictEqual(reason?.used, 4)
  })

  it("allows the request once a counted request is an hour old, and below the limit", () => {
    assert.strictEqual(
      evaluate({ recentRequests: [NOW - HOUR, NOW - 1], policy: { maxRequestsPerHour: 2 } }).outcome,
      "approved"
    )
    assert.deepStrictEqual(codes({ recentRequests: [NOW - HOUR + 1, NOW - 1], policy: { maxRequestsPerHour: 2 } }), [
      "velocity_exceeded"
    ])
  })

  it("denies over the daily count until the next UTC day", () => {
    const decision = evaluate({ requestsToday: 5, policy: { maxRequestsPerDay: 5 } })
    assert.deepStrictEqual(decision.reasons, [
      {
        code: "velocity_exceeded",
        message: "5 requests today reach the limit of 5 requests per day",
        limit: 5,
        used: 5,
        requested: 1,
        remaining: 0,
        interval: "day",
        resetsAt: "2026-11-19T00:00:00.000Z",
        nextAllowedAt: "2026-11-19T00:00:00.000Z"
      }
    ])
    assert.strictEqual(evaluate({ requestsToday: 4, policy: { maxRequestsPerDay: 5 } }).outcome, "approved")
  })

  it("with a zero limit denies every request and names no next time", () => {
    const [hour] = evaluate({ policy: { maxRequestsPerHour: 0 } }).reasons
    const [day] = evaluate({ policy: { maxRequestsPerDay: 0 } }).reasons
    assert.strictEqual(hour?.code, "velocity_exceeded")
    assert.isUndefined(hour?.nextAllowedAt)
    assert.strictEqual(day?.code, "velocity_exceeded")
    assert.isUndefined(day?.nextAllowedAt)
  })

  it("reports the hour before the day, after the per-request limit and before the budgets", () => {
    const decision = evaluate({
      amount: 2000,
      recentRequests: [NOW - 1],
      requestsToday: 1,
      spent: spentOf({ day: 0 }),
      policy: { perRequestLimit: 1000, maxRequestsPerHour: 1, maxRequestsPerDay: 1, dailyBudget: 1000 }
    })
    assert.deepStrictEqual(
      decision.reasons.map((r) => [r.code, r.interval]),
      [
        ["amount_over_limit", undefined],
        ["velocity_exceeded", "hour"],
        ["velocity_exceeded", "day"],
        ["daily_budget_exceeded", "day"]
      ]
    )
  })
})

describe("every deny rule of this area together", () => {
  it("lists them in contract order", () => {
    assert.deepStrictEqual(
      codes({
        amount: 5000,
        available: 10,
        merchant: { name: "Air", category: "travel" },
        recentRequests: [NOW - 1],
        spent: spentOf({ day: 1, week: 1, month: 1, year: 1, lifetime: 1 }),
        categorySpent: spentOf({ month: 1 }),
        policy: {
          perRequestLimit: 1,
          maxRequestsPerHour: 1,
          dailyBudget: 1,
          weeklyBudget: 1,
          monthlyBudget: 1,
          yearlyBudget: 1,
          lifetimeBudget: 1,
          categoryBudgets: [{ category: "travel", interval: "month", amount: 1 }],
          approvalThreshold: 1
        }
      }),
      [
        "amount_over_limit",
        "velocity_exceeded",
        "daily_budget_exceeded",
        "weekly_budget_exceeded",
        "monthly_budget_exceeded",
        "yearly_budget_exceeded",
        "lifetime_budget_exceeded",
        "category_budget_exceeded",
        "insufficient_funds"
      ]
    )
  })
})

describe("periods", () => {
  it("starts ISO weeks on Monday 00:00 UTC", () => {
    assert.strictEqual(iso(utcWeekStart(Date.parse("2026-11-23T00:00:00.000Z"))), "2026-11-23T00:00:00.000Z")
    assert.strictEqual(iso(utcWeekStart(Date.parse("2026-11-22T23:59:59.999Z"))), "2026-11-16T00:00:00.000Z")
    assert.strictEqual(iso(utcWeekStart(Date.parse("2027-01-01T10:00:00.000Z"))), "2026-12-28T00:00:00.000Z")
    assert.strictEqual(iso(utcWeekStart(Date.parse("1970-01-01T00:00:00.000Z"))), "1969-12-29T00:00:00.000Z")
  })

  it("starts years on January 1st UTC", () => {
    assert.strictEqual(iso(utcYearStart(Date.parse("2026-12-31T23:59:59.999Z"))), "2026-01-01T00:00:00.000Z")
    assert.strictEqual(iso(utcYearStart(Date.parse("2027-01-01T00:00:00.000Z"))), "2027-01-01T00:00:00.000Z")
  })

  it("ends each period where the next starts, and the lifetime never", () => {
    for (const interval of ["day", "week", "month", "year"] as const) {
      const end = nextPeriodStart(interval, NOW)
      assert.isAbove(end, NOW)
      assert.strictEqual(periodStart(interval, end), end)
      assert.strictEqual(periodStart(interval, end - 1), periodStart(interval, NOW))
    }
    assert.strictEqual(nextPeriodStart("lifetime", NOW), Number.POSITIVE_INFINITY)
  })

  it("names the windows of a moment and its normalised category", () => {
    assert.deepStrictEqual(usageWindows(NOW, " Travel "), {
      day: "2026-11-18T00:00:00.000Z",
      week: "2026-11-16T00:00:00.000Z",
      month: "2026-11-01T00:00:00.000Z",
      year: "2026-01-01T00:00:00.000Z",
      category: "travel"
    })
    assert.strictEqual(usageWindows(NOW, "  ").category, null)
  })
})

describe("policy schema", () => {
  const decode = Schema.decodeUnknownExit(SpendPolicy)
  const refused = (input: unknown) => decode(input)._tag === "Failure"

  it("accepts the new intervals, category budgets and velocity limits", () => {
    assert.isFalse(
      refused({
        weeklyBudget: 1,
        yearlyBudget: 2,
        lifetimeBudget: 3,
        maxRequestsPerHour: 10,
        maxRequestsPerDay: 0,
        categoryBudgets: [
          { category: "travel", interval: "month", amount: 50_000 },
          { category: "travel", interval: "lifetime", amount: 1 }
        ]
      })
    )
  })

  it("refuses negative, fractional and oversized amounts and counts", () => {
    for (const bad of [
      { weeklyBudget: -1 },
      { yearlyBudget: 1.5 },
      { lifetimeBudget: "10" },
      { maxRequestsPerHour: -1 },
      { maxRequestsPerDay: 2.5 },
      { maxRequestsPerDay: 1_000_001 },
      { categoryBudgets: [{ category: "travel", interval: "month", amount: -5 }] }
    ]) {
      assert.isTrue(refused(bad), JSON.stringify(bad))
    }
  })

  it("refuses a category budget of an unknown interval, a bad category or a second one for the same pair", () => {
    assert.isTrue(refused({ categoryBudgets: [{ category: "travel", interval: "hour", amount: 1 }] }))
    assert.isTrue(refused({ categoryBudgets: [{ category: "travel", interval: "fortnight", amount: 1 }] }))
    assert.isTrue(refused({ categoryBudgets: [{ category: "Travel!", interval: "day", amount: 1 }] }))
    assert.isTrue(
      refused({
        categoryBudgets: [
          { category: "travel", interval: "day", amount: 1 },
          { category: "travel", interval: "day", amount: 2 }
        ]
      })
    )
  })
})

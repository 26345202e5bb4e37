import { assert, describe, it } from "@effect/vitest"
import {
  addMonths,
  emptyMonth,
  expensesReport,
  lastDayOf,
  medianMinor,
  monthsBetween,
  percentageChange,
  profitMinor,
  revenueMinor,
  runwayReport,
  sharePercent,
  spendingReport
} from "@svc/domain"

describe("report maths", () => {
  it("months: across years, a one-month range, none when reversed", () => {
    assert.deepStrictEqual(monthsBetween("2024-11", "2025-02"), ["2024-11", "2024-12", "2025-01", "2025-02"])
    assert.deepStrictEqual(monthsBetween("2025-02", "2025-02"), ["2025-02"])
    assert.deepStrictEqual(monthsBetween("2025-03", "2025-02"), [])
    assert.strictEqual(addMonths("2025-01", -12), "2024-01")
    assert.strictEqual(addMonths("2025-01", -1), "2024-12")
    assert.strictEqual(addMonths("2024-12", 1), "2025-01")
  })

  it("percentage: rounded half away from zero, 0 against a zero previous, positive only when above", () => {
    // |150 - 100| / 100 = 50 %
    assert.deepStrictEqual(percentageChange(150, 100), { value: 50, status: "positive" })
    // |1 - 200| / 200 = 99.5 % -> 100 (half away from zero)
    assert.deepStrictEqual(percentageChange(1, 200), { value: 100, status: "negative" })
    // |3 - 8| / 8 = 62.5 % -> 63
    assert.deepStrictEqual(percentageChange(3, 8), { value: 63, status: "negative" })
    assert.deepStrictEqual(percentageChange(500, 0), { value: 0, status: "positive" })
    assert.deepStrictEqual(percentageChange(0, 0), { value: 0, status: "neutral" })
    assert.deepStrictEqual(percentageChange(100, 100), { value: 0, status: "neutral" })
    assert.deepStrictEqual(percentageChange(-100, -100), { value: 0, status: "neutral" })
    // losses compare by magnitude: |(|-300| - |-200|)| / |-200| = 50 %; -300 is below -200
    assert.deepStrictEqual(percentageChange(-300, -200), { value: 50, status: "negative" })
  })

  it("revenue and profit of a month by revenue type", () => {
    const month = {
      ...emptyMonth("2025-01"),
      revenueMinor: 12000,
      revenueTaxMinor: 2000,
      costOfGoodsSoldMinor: 3000,
      operatingExpensesMinor: 4000
    }
    assert.strictEqual(revenueMinor(month, "gross"), 12000)
    assert.strictEqual(revenueMinor(month, "net"), 10000)
    // gross profit: net revenue 10000 - cogs 3000; net profit: also - 4000
    assert.strictEqual(profitMinor(month, "gross"), 7000)
    assert.strictEqual(profitMinor(month, "net"), 3000)
  })

  it("median: odd and even counts, the even one rounded half away from zero", () => {
    assert.strictEqual(medianMinor([]), 0)
    assert.strictEqual(medianMinor([5, 1, 3]), 3)
    assert.strictEqual(medianMinor([1, 2]), 2)
    assert.strictEqual(medianMinor([10, 20]), 15)
  })

  it("runway: burns of 0 are not burns; no burn is {0, 0}; months rounded", () => {
    const months = [
      { ...emptyMonth("2025-01"), spendMinor: 0 },
      { ...emptyMonth("2025-02"), spendMinor: 30000 },
      { ...emptyMonth("2025-03"), spendMinor: 0 }
    ]
    // 100000 / 30000 = 3.33 -> 3
    assert.deepStrictEqual(runwayReport(100000, months, "USD"), { months: 3, medianBurn: 300 })
    assert.deepStrictEqual(runwayReport(100000, [emptyMonth("2025-01")], "USD"), { months: 0, medianBurn: 0 })
    // JPY has no minor digits: 45000 / 10000 = 4.5 -> 5
    assert.deepStrictEqual(runwayReport(45000, [{ ...emptyMonth("2025-01"), spendMinor: 10000 }], "JPY"), {
      months: 5,
      medianBurn: 10000
    })
  })

  it("expenses of no months average 0", () => {
    assert.deepStrictEqual(expensesReport([], [], "USD").summary, { averageExpense: 0, currency: "USD" })
  })

  it("shares: whole percent above 1, two decimals at or below", () => {
    assert.strictEqual(sharePercent(1, 3), 33)
    assert.strictEqual(sharePercent(1, 100), 1)
    assert.strictEqual(sharePercent(1, 300), 0.33)
    assert.strictEqual(sharePercent(1, 200_000), 0)
    assert.strictEqual(sharePercent(5, 0), 0)
  })

  it("spending: uncategorised rows merge into one bucket; empty categories are dropped; ties by slug", () => {
    const rent = { name: "Rent", slug: "rent", color: "#3498DB" }
    const travel = { name: "Travel", slug: "travel", color: "#F1C40F" }
    const report = spendingReport(
      [
        { category: null, amountMinor: 100 },
        { category: travel, amountMinor: 300 },
        { category: rent, amountMinor: 300 },
        { category: null, amountMinor: 200 },
        { category: { name: "Idle", slug: "idle", color: "#000000" }, amountMinor: 0 }
      ],
      "USD"
    )
    assert.deepStrictEqual(
      report.map((r) => [r.slug, r.amount, r.percentage]),
      [
        ["rent", 3, 33],
        ["travel", 3, 33],
        ["uncategorized", 3, 33]
      ]
    )
  })
})

describe("month ends", () => {
  it("last days: 30- and 31-day months, February in leap and common years, centuries", () => {
    assert.strictEqual(lastDayOf("2025-01"), "2025-01-31")
    assert.strictEqual(lastDayOf("2025-04"), "2025-04-30")
    assert.strictEqual(lastDayOf("2024-02"), "2024-02-29")
    assert.strictEqual(lastDayOf("2025-02"), "2025-02-28")
    assert.strictEqual(lastDayOf("1900-02"), "1900-02-28")
    assert.strictEqual(lastDayOf("2000-02"), "2000-02-29")
    assert.strictEqual(lastDayOf("2025-12"), "2025-12-31")
  })
})

import { divideRounded, renderMinor } from "../money/model.ts"
import type {
  BurnRateReport,
  ExpensesReport,
  ProfitReport,
  ReportPercentage,
  RevenueReport,
  RevenueType,
  RunwayReport,
  SpendingReport
} from "./Report.ts"

/** A UTC calendar month, `YYYY-MM`. */
export type Month = string

/**
 * What the counted transactions of one month add up to in the report currency, in minor units. Counted: not internal,
 * not `excluded`, not in an excluded category, and in the currency (own amount) or with it as base currency (base
 * amount). Expense sums are positive magnitudes of negative transactions.
 */
export interface MonthTotals {
  readonly month: Month
  /** Positive transactions in revenue categories plus every contra-revenue transaction (refunds are negative). */
  readonly revenueMinor: number
  /** The tax those include, per transaction `amount * rate / (100 + rate)` rounded half away from zero. */
  readonly revenueTaxMinor: number
  /** Negative transactions in cost-of-goods-sold categories. */
  readonly costOfGoodsSoldMinor: number
  /** Negative transactions neither cost of goods sold nor contra-revenue (uncategorised included). */
  readonly operatingExpensesMinor: number
  /** Every negative transaction (the month's burn). */
  readonly spendMinor: number
  /** The recurring part of `spendMinor`. */
  readonly recurringSpendMinor: number
}

/** A month with nothing counted. */
export const emptyMonth = (month: Month): MonthTotals => ({
  month,
  revenueMinor: 0,
  revenueTaxMinor: 0,
  costOfGoodsSoldMinor: 0,
  operatingExpensesMinor: 0,
  spendMinor: 0,
  recurringSpendMinor: 0
})

/** What the negative transactions of one category (none: uncategorised) add up to over a range, as a magnitude. */
export interface CategorySpend {
  readonly category: { readonly name: string; readonly slug: string; readonly color: string } | null
  readonly amountMinor: number
}

const pad = (n: number, width: number) => String(n).padStart(width, "0")

/** The month of a `YYYY-MM-DD` date. */
export const monthOf = (date: string): Month => date.slice(0, 7)

/** The month `delta` months after (before, when negative) `month`. */
export const addMonths = (month: Month, delta: number): Month => {
  const index = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1 + delta
  return `${pad(Math.floor(index / 12), 4)}-${pad((index % 12) + 1, 2)}`
}

/** The months from `from` to `to`, both included (none when `from` is after `to`). */
export const monthsBetween = (from: Month, to: Month): ReadonlyArray<Month> => {
  const months: Array<Month> = []
  for (let month = from; month <= to; month = addMonths(month, 1)) months.push(month)
  return months
}

/** The first day of a month, the date a report item carries. */
export const monthStart = (month: Month): string => `${month}-01`

const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const

/** The last day of a month, `YYYY-MM-DD`. */
export const lastDayOf = (month: Month): string => {
  const year = Number(month.slice(0, 4))
  const index = Number(month.slice(5, 7)) - 1
  const days = index === 1 && isLeapYear(year) ? 29 : (DAYS[index] ?? 31)
  return `${month}-${pad(days, 2)}`
}

/** The totals of each month of `months`, 0 for a month without a row. */
export const fillMonths = (
  months: ReadonlyArray<Month>,
  rows: ReadonlyArray<MonthTotals>
): ReadonlyArray<MonthTotals> => {
  const byMonth = new Map(rows.map((row) => [row.month, row]))
  return months.map((month) => byMonth.get(month) ?? emptyMonth(month))
}

/** Revenue of a month: gross, or net of the tax each transaction includes. */
export const revenueMinor = (totals: MonthTotals, type: RevenueType): number =>
  type === "gross" ? totals.revenueMinor : totals.revenueMinor - totals.revenueTaxMinor

/**
 * Profit of a month: net revenue less cost of goods sold (`gross`), and less every other expense too (`net`).
 */
export const profitMinor = (totals: MonthTotals, type: RevenueType): number => {
  const gross = revenueMinor(totals, "net") - totals.costOfGoodsSoldMinor
  return type === "gross" ? gross : gross - totals.operatingExpensesMinor
}

/**
 * `round(|(|current| - |previous|) / |previous| * 100|)` (half away from zero), 0 when previous is 0; `positive` when
 * current is above previous, `negative` below it, `neutral` when they are equal (a month of 0 after a month of 0 did
 * not get worse).
 */
export const percentageChange = (currentMinor: number, previousMinor: number): ReportPercentage => {
  const status = currentMinor > previousMinor ? "positive" : currentMinor < previousMinor ? "negative" : "neutral"
  if (previousMinor === 0) return { value: 0, status }
  const current = BigInt(Math.abs(currentMinor))
  const previous = BigInt(Math.abs(previousMinor))
  const change = current > previous ? current - previous : previous - current
  return { value: Number(divideRounded(change * 100n, previous)), status }
}

interface ComparisonInput {
  readonly months: ReadonlyArray<Month>
  /** Totals of the months and of the same months one year earlier (any order, gaps allowed). */
  readonly rows: ReadonlyArray<MonthTotals>
  readonly currency: string
}

const comparison = <T extends "revenue" | "profit">(
  type: T,
  input: ComparisonInput,
  measure: (totals: MonthTotals) => number
) => {
  const current = fillMonths(input.months, input.rows)
  const previous = fillMonths(
    input.months.map((month) => addMonths(month, -12)),
    input.rows
  )
  const render = (minor: number) => renderMinor(minor, input.currency)
  let currentTotal = 0
  let prevTotal = 0
  const result = current.map((month, i) => {
    const before = previous[i] ?? emptyMonth(addMonths(month.month, -12))
    const value = measure(month)
    const previousValue = measure(before)
    currentTotal += value
    prevTotal += previousValue
    return {
      date: monthStart(month.month),
      percentage: percentageChange(value, previousValue),
      current: { date: monthStart(month.month), value: render(value), currency: input.currency },
      previous: { date: monthStart(before.month), value: render(previousValue), currency: input.currency }
    }
  })
  return {
    summary: { currentTotal: render(currentTotal), prevTotal: render(prevTotal), currency: input.currency },
    meta: { type, currency: input.currency },
    result
  }
}

/** The revenue report: each month's revenue against the same month one year earlier. */
export const revenueReport = (input: ComparisonInput, type: RevenueType): RevenueReport =>
  comparison("revenue", input, (totals) => revenueMinor(totals, type))

/** The profit report: each month's profit against the same month one year earlier. */
export const profitReport = (input: ComparisonInput, type: RevenueType): ProfitReport =>
  comparison("profit", input, (totals) => profitMinor(totals, type))

/** The burn rate: each month's spend. */
export const burnRateReport = (
  months: ReadonlyArray<Month>,
  rows: ReadonlyArray<MonthTotals>,
  currency: string
): BurnRateReport =>
  fillMonths(months, rows).map((totals) => ({
    date: monthStart(totals.month),
    value: renderMinor(totals.spendMinor, currency),
    currency
  }))

/** The median of amounts in minor units (the mean of the middle two of an even count, half away from zero). */
export const medianMinor = (values: ReadonlyArray<number>): number => {
  const sorted = values.toSorted((a, b) => a - b)
  if (sorted.length === 0) return 0
  const middle = Math.floor(sorted.length / 2)
  if (sorted.length % 2 === 1) return sorted[middle] ?? 0
  return Number(divideRounded(BigInt(sorted[middle - 1] ?? 0) + BigInt(sorted[middle] ?? 0), 2n))
}

/** The 3 months before `month` (the completed months a runway reads when `month` is the current one). */
export const completedMonthsBefore = (month: Month): ReadonlyArray<Month> =>
  [3, 2, 1].map((back) => addMonths(month, -back))

/**
 * The runway: the median of the positive burns of the completed months given, and the cash divided by it (rounded
 * half away from zero); `{months: 0, medianBurn: 0}` when none of them burned.
 */
export const runwayReport = (
  cashMinor: number,
  completed: ReadonlyArray<MonthTotals>,
  currency: string
): RunwayReport => {
  const burns = completed.map((totals) => totals.spendMinor).filter((burn) => burn > 0)
  const median = medianMinor(burns)
  if (median === 0) return { months: 0, medianBurn: 0 }
  return {
    months: Number(divideRounded(BigInt(cashMinor), BigInt(median))),
    medianBurn: renderMinor(median, currency)
  }
}

/** The expenses report: each month's one-off and recurring spend; the average one-off spend over the months. */
export const expensesReport = (
  months: ReadonlyArray<Month>,
  rows: ReadonlyArray<MonthTotals>,
  currency: string
): ExpensesReport => {
  const filled = fillMonths(months, rows)
  const oneOff = filled.map((totals) => totals.spendMinor - totals.recurringSpendMinor)
  const sum = oneOff.reduce((a, b) => a + BigInt(b), 0n)
  const average = filled.length === 0 ? 0 : Number(divideRounded(sum, BigInt(filled.length)))
  return {
    summary: { averageExpense: renderMinor(average, currency), currency },
    meta: { type: "expense", currency },
    result: filled.map((totals, i) => ({
      date: monthStart(totals.month),
      value: renderMinor(oneOff[i] ?? 0, currency),
      currency,
      recurring: renderMinor(totals.recurringSpendMinor, currency),
      total: renderMinor(totals.spendMinor, currency)
    }))
  }
}

/** Where spend without a category goes in the spending report. */
export const UNCATEGORIZED = { name: "Uncategorized", slug: "uncategorized", color: "#606060" } as const

/**
 * A share of a total in percent: a whole number when above 1, else with two decimals (half away from zero both).
 */
export const sharePercent = (partMinor: number, totalMinor: number): number => {
  if (totalMinor === 0) return 0
  const part = BigInt(partMinor)
  const total = BigInt(totalMinor)
  if (part * 100n > total) return Number(divideRounded(part * 100n, total))
  return Number(divideRounded(part * 10_000n, total)) / 100
}

/** Spending by category, largest first (then by slug); no category is the `Uncategorized` bucket. */
export const spendingReport = (rows: ReadonlyArray<CategorySpend>, currency: string): SpendingReport => {
  const merged = new Map<string, { name: string; slug: string; color: string; amountMinor: number }>()
  for (const row of rows) {
    if (row.amountMinor === 0) continue
    const category = row.category ?? UNCATEGORIZED
    const known = merged.get(category.slug)
    merged.set(category.slug, {
      name: category.name,
      slug: category.slug,
      color: category.color,
      amountMinor: (known?.amountMinor ?? 0) + row.amountMinor
    })
  }
  const total = [...merged.values()].reduce((sum, row) => sum + row.amountMinor, 0)
  return [...merged.values()]
    .toSorted((a, b) => b.amountMinor - a.amountMinor || (a.slug < b.slug ? -1 : 1))
    .map((row) => ({
      name: row.name,
      slug: row.slug,
      amount: renderMinor(row.amountMinor, currency),
      currency,
      color: row.color,
      percentage: sharePercent(row.amountMinor, total)
    }))
}

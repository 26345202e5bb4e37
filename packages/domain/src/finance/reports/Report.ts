import { Schema } from "effect"
import { CalendarDate, KnownCurrency } from "../money/model.ts"

/** How revenue is counted: as received (`gross`) or with the included tax stripped per transaction (`net`). */
export const RevenueType = Schema.Literals(["gross", "net"])
export type RevenueType = typeof RevenueType.Type

/**
 * What a report covers: `from`..`to` (widened to whole UTC months), in `currency` (absent: the team's base currency).
 * Without `to` it ends this month; without `from` it starts 11 months before `to`'s month (12 months in all).
 * `revenueType` absent: `gross` for revenue, `net` for profit.
 */
export const ReportQuery = Schema.Struct({
  from: Schema.optionalKey(CalendarDate),
  to: Schema.optionalKey(CalendarDate),
  currency: Schema.optionalKey(KnownCurrency),
  revenueType: Schema.optionalKey(RevenueType)
})
export type ReportQuery = typeof ReportQuery.Type

/** The months a report covers when `from` is not given, `to`'s month included. */
export const DEFAULT_REPORT_MONTHS = 12

/** One month's value of a report, in major units of the report currency. */
export const ReportPoint = Schema.Struct({ date: Schema.String, value: Schema.Finite, currency: Schema.String })
export type ReportPoint = typeof ReportPoint.Type

/** The change against the same month a year earlier, in whole percent: up (`positive`), down, or none (`neutral`). */
export const ReportPercentage = Schema.Struct({
  value: Schema.Finite,
  status: Schema.Literals(["negative", "neutral", "positive"])
})
export type ReportPercentage = typeof ReportPercentage.Type

const comparison = <T extends "revenue" | "profit">(type: T) =>
  Schema.Struct({
    summary: Schema.Struct({ currentTotal: Schema.Finite, prevTotal: Schema.Finite, currency: Schema.String }),
    meta: Schema.Struct({ type: Schema.Literal(type), currency: Schema.String }),
    result: Schema.Array(
      Schema.Struct({ date: Schema.String, percentage: ReportPercentage, current: ReportPoint, previous: ReportPoint })
    )
  })

/** SPEC.md's revenue report: each month against the same month one year earlier. */
export const RevenueReport = comparison("revenue")
export type RevenueReport = typeof RevenueReport.Type

/** SPEC.md's profit report: the revenue report's shape with `meta.type` `profit`. */
export const ProfitReport = comparison("profit")
export type ProfitReport = typeof ProfitReport.Type

/** SPEC.md's burn rate: what went out each month. */
export const BurnRateReport = Schema.Array(ReportPoint)
export type BurnRateReport = typeof BurnRateReport.Type

/** SPEC.md's runway: months of cash left at the median burn of the last 3 completed months. */
export const RunwayReport = Schema.Struct({ months: Schema.Finite, medianBurn: Schema.Finite })
export type RunwayReport = typeof RunwayReport.Type

/** SPEC.md's expenses: each month's one-off (`value`) and recurring spend. */
export const ExpensesReport = Schema.Struct({
  summary: Schema.Struct({ averageExpense: Schema.Finite, currency: Schema.String }),
  meta: Schema.Struct({ type: Schema.String, currency: Schema.String }),
  result: Schema.Array(
    Schema.Struct({
      date: Schema.String,
      value: Schema.Finite,
      currency: Schema.String,
      recurring: Schema.Finite,
      total: Schema.Finite
    })
  )
})
export type ExpensesReport = typeof ExpensesReport.Type

/** One category of SPEC.md's spending report. */
export const SpendingItem = Schema.Struct({
  name: Schema.String,
  slug: Schema.String,
  amount: Schema.Finite,
  currency: Schema.String,
  color: Schema.String,
  percentage: Schema.Finite
})
export type SpendingItem = typeof SpendingItem.Type

/** SPEC.md's spending by category, largest first. */
export const SpendingReport = Schema.Array(SpendingItem)
export type SpendingReport = typeof SpendingReport.Type

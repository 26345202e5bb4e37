import { Clock, Context, Effect, Layer, Option } from "effect"
import { TeamsRepo } from "../../identity/index.ts"
import { isoOfMillis, type PersistenceUnavailable, type TeamId } from "../../shared/index.ts"
import { isKnownCurrency } from "../money/model.ts"
import {
  type BurnRateReport,
  DEFAULT_REPORT_MONTHS,
  type ExpensesReport,
  type ProfitReport,
  type ReportQuery,
  type RevenueReport,
  type RunwayReport,
  type SpendingReport
} from "./Report.ts"
import { InvalidReportQuery } from "./ReportErrors.ts"
import {
  addMonths,
  burnRateReport,
  completedMonthsBefore,
  expensesReport,
  fillMonths,
  lastDayOf,
  type Month,
  monthOf,
  monthStart,
  monthsBetween,
  profitReport,
  revenueReport,
  runwayReport,
  spendingReport
} from "./ReportMaths.ts"
import { ReportsRepo } from "./ReportsRepo.ts"

/** The longest range a report covers. */
export const MAX_REPORT_MONTHS = 120

type ReportError = InvalidReportQuery | PersistenceUnavailable

/** The six business-finance reports of a team, computed exactly in minor units and rendered in major units. */
export class Reports extends Context.Service<
  Reports,
  {
    readonly revenue: (teamId: TeamId, query: ReportQuery) => Effect.Effect<RevenueReport, ReportError>
    readonly profit: (teamId: TeamId, query: ReportQuery) => Effect.Effect<ProfitReport, ReportError>
    readonly burnRate: (teamId: TeamId, query: ReportQuery) => Effect.Effect<BurnRateReport, ReportError>
    /** Reads the current month from the Clock: the 3 months before it are the completed ones. */
    readonly runway: (teamId: TeamId, query: ReportQuery) => Effect.Effect<RunwayReport, ReportError>
    readonly expenses: (teamId: TeamId, query: ReportQuery) => Effect.Effect<ExpensesReport, ReportError>
    readonly spending: (teamId: TeamId, query: ReportQuery) => Effect.Effect<SpendingReport, ReportError>
  }
>()("@svc/domain/Reports") {
  static readonly layer = Layer.effect(
    Reports,
    Effect.gen(function* () {
      const repo = yield* ReportsRepo
      const teams = yield* TeamsRepo

      const resolve = Effect.fn("Reports.resolve")(function* (teamId: TeamId, query: ReportQuery) {
        const to = query.to ?? isoOfMillis(yield* Clock.currentTimeMillis).slice(0, 10)
        const from = query.from ?? monthStart(addMonths(monthOf(to), 1 - DEFAULT_REPORT_MONTHS))
        if (from > to) {
          return yield* new InvalidReportQuery({ field: "from", message: "from must not be after to" })
        }
        const months = monthsBetween(monthOf(from), monthOf(to))
        if (months.length > MAX_REPORT_MONTHS) {
          return yield* new InvalidReportQuery({
            field: "to",
            message: `a report covers at most ${MAX_REPORT_MONTHS} months`
          })
        }
        let currency = query.currency
        if (currency === undefined) {
          const team = yield* teams.findById(teamId)
          currency = Option.match(team, { onNone: () => "USD", onSome: (t) => t.baseCurrency })
        }
        if (!isKnownCurrency(currency)) {
          return yield* new InvalidReportQuery({ field: "currency", message: "expected a known ISO 4217 currency" })
        }
        return { months, currency }
      })

      const totals = (teamId: TeamId, currency: string, from: Month, to: Month) =>
        repo.monthlyTotals(teamId, currency, monthStart(from), lastDayOf(to))
      const lastMonth = (months: ReadonlyArray<Month>) => months[months.length - 1] ?? months[0] ?? "1970-01"
      const firstMonth = (months: ReadonlyArray<Month>) => months[0] ?? "1970-01"

      const comparisonRows = (teamId: TeamId, months: ReadonlyArray<Month>, currency: string) =>
        totals(teamId, currency, addMonths(firstMonth(months), -12), lastMonth(months))

      return Reports.of({
        revenue: Effect.fn("Reports.revenue")(function* (teamId, query) {
          const { months, currency } = yield* resolve(teamId, query)
          const rows = yield* comparisonRows(teamId, months, currency)
          return revenueReport({ months, rows, currency }, query.revenueType ?? "gross")
        }),
        profit: Effect.fn("Reports.profit")(function* (teamId, query) {
          const { months, currency } = yield* resolve(teamId, query)
          const rows = yield* comparisonRows(teamId, months, currency)
          return profitReport({ months, rows, currency }, query.revenueType ?? "net")
        }),
        burnRate: Effect.fn("Reports.burnRate")(function* (teamId, query) {
          const { months, currency } = yield* resolve(teamId, query)
          const rows = yield* totals(teamId, currency, firstMonth(months), lastMonth(months))
          return burnRateReport(months, rows, currency)
        }),
        runway: Effect.fn("Reports.runway")(function* (teamId, query) {
          const { currency } = yield* resolve(teamId, query)
          const now = yield* Clock.currentTimeMillis
          const completed = completedMonthsBefore(monthOf(isoOfMillis(now)))
          const [rows, cash] = yield* Effect.all(
            [totals(teamId, currency, firstMonth(completed), lastMonth(completed)), repo.cash(teamId, currency)],
            { concurrency: 1 }
          )
          return runwayReport(cash, fillMonths(completed, rows), currency)
        }),
        expenses: Effect.fn("Reports.expenses")(function* (teamId, query) {
          const { months, currency } = yield* resolve(teamId, query)
          const rows = yield* totals(teamId, currency, firstMonth(months), lastMonth(months))
          return expensesReport(months, rows, currency)
        }),
        spending: Effect.fn("Reports.spending")(function* (teamId, query) {
          const { months, currency } = yield* resolve(teamId, query)
          const rows = yield* repo.spendingByCategory(
            teamId,
            currency,
            monthStart(firstMonth(months)),
            lastDayOf(lastMonth(months))
          )
          return spendingReport(rows, currency)
        })
      })
    })
  )
}

import { Context, type Effect } from "effect"
import type { PersistenceUnavailable, TeamId } from "../../shared/model.ts"
import type { CalendarDate } from "../money/model.ts"
import type { CategorySpend, MonthTotals } from "./ReportMaths.ts"

/**
 * The sums the reports are computed from, in one currency. A transaction counts in its own amount when its currency is
 * the report's, else in its base amount when its base currency is, else not at all; internal ones, status `excluded`
 * and excluded categories never count; pending and archived ones do. Ranges are whole UTC months: `from` is the first
 * day of a month, `to` the last day of one. A transaction's base amount has the sign of its amount.
 */
export class ReportsRepo extends Context.Service<
  ReportsRepo,
  {
    /** The totals of each month from `from` to `to` (inclusive days) that has a counted transaction, by month. */
    readonly monthlyTotals: (
      teamId: TeamId,
      currency: string,
      from: CalendarDate,
      to: CalendarDate
    ) => Effect.Effect<ReadonlyArray<MonthTotals>, PersistenceUnavailable>
    /** The spend (negative transactions, as magnitudes) of each category from `from` to `to`; none: uncategorised. */
    readonly spendingByCategory: (
      teamId: TeamId,
      currency: string,
      from: CalendarDate,
      to: CalendarDate
    ) => Effect.Effect<ReadonlyArray<CategorySpend>, PersistenceUnavailable>
    /**
     * The cash of the team in the currency: the balances of its enabled `depository` and `other_asset` accounts, each
     * in its own currency when it is this one, else its base balance when its base currency is, else left out.
     */
    readonly cash: (teamId: TeamId, currency: string) => Effect.Effect<number, PersistenceUnavailable>
  }
>()("@svc/domain/ReportsRepo") {}

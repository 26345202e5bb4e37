import {
  BurnRateReport,
  ExpensesReport,
  ProfitReport,
  ReportQuery,
  RevenueReport,
  RunwayReport,
  SpendingReport
} from "@svc/domain/model"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { CommonErrors, Forbidden, PlatformAuth, RequiredScope } from "../../shared/index.ts"

const RULES =
  "`from` and `to` (YYYY-MM-DD) widen to whole UTC months and every month appears, 0 when empty; without `to` the " +
  "report ends this month, without `from` it starts 11 months before `to`'s month (12 months); `currency` defaults " +
  "to the team's base currency. A transaction counts in its own amount when its currency is the report's, else in its " +
  "base amount when its base currency is, else not at all; internal transactions, status `excluded` and excluded " +
  "categories never count; pending and archived ones do. Amounts are decimal numbers in major units."

/** The six business-finance reports (scope `reports.read`; a session sees its current team). */
export class ReportsApi extends HttpApiGroup.make("reports")
  .add(
    HttpApiEndpoint.get("revenue", "/reports/revenue", {
      query: ReportQuery.fields,
      success: RevenueReport,
      error: [...CommonErrors, Forbidden]
    })
      .annotate(RequiredScope, "reports.read")
      .annotate(OpenApi.Summary, "Revenue report")
      .annotate(
        OpenApi.Description,
        "Each month's revenue against the same month one year earlier: positive transactions in revenue categories " +
          "less contra-revenue (refunds, chargebacks); uncategorised income is not revenue. `revenueType=net` strips " +
          `the tax each transaction includes (its own rate, else its category's); default gross. ${RULES}`
      ),
    HttpApiEndpoint.get("profit", "/reports/profit", {
      query: ReportQuery.fields,
      success: ProfitReport,
      error: [...CommonErrors, Forbidden]
    })
      .annotate(RequiredScope, "reports.read")
      .annotate(OpenApi.Summary, "Profit report")
      .annotate(
        OpenApi.Description,
        "Each month's profit against the same month one year earlier: net revenue less cost of goods sold " +
          `(\`revenueType=gross\`), and less every other expense too (\`net\`, the default). ${RULES}`
      ),
    HttpApiEndpoint.get("burnRate", "/reports/burn-rate", {
      query: ReportQuery.fields,
      success: BurnRateReport,
      error: [...CommonErrors, Forbidden]
    })
      .annotate(RequiredScope, "reports.read")
      .annotate(OpenApi.Summary, "Burn rate report")
      .annotate(OpenApi.Description, `Each month's spend: the magnitude of its negative transactions. ${RULES}`),
    HttpApiEndpoint.get("runway", "/reports/runway", {
      query: ReportQuery.fields,
      success: RunwayReport,
      error: [...CommonErrors, Forbidden]
    })
      .annotate(RequiredScope, "reports.read")
      .annotate(OpenApi.Summary, "Runway report")
      .annotate(
        OpenApi.Description,
        "`medianBurn`: the median of the positive burns of the last 3 completed months (the current month excluded); " +
          "`months`: cash / medianBurn rounded, cash being the balances of enabled depository and other-asset accounts " +
          "in the currency (or their base balance). `{months: 0, medianBurn: 0}` without burn. `from`/`to` are " +
          "validated only."
      ),
    HttpApiEndpoint.get("expenses", "/reports/expenses", {
      query: ReportQuery.fields,
      success: ExpensesReport,
      error: [...CommonErrors, Forbidden]
    })
      .annotate(RequiredScope, "reports.read")
      .annotate(OpenApi.Summary, "Expenses report")
      .annotate(
        OpenApi.Description,
        "Each month's one-off spend (`value`), recurring spend and `total`; `averageExpense` is the mean of `value` " +
          `over the months. ${RULES}`
      ),
    HttpApiEndpoint.get("spending", "/reports/spending", {
      query: ReportQuery.fields,
      success: SpendingReport,
      error: [...CommonErrors, Forbidden]
    })
      .annotate(RequiredScope, "reports.read")
      .annotate(OpenApi.Summary, "Spending by category")
      .annotate(
        OpenApi.Description,
        "Spend over the range by category, largest first, with its share of all spend (whole percent above 1, else " +
          `two decimals); spend without a category is \`uncategorized\`. ${RULES}`
      )
  )
  .middleware(PlatformAuth) {}

/** The query every report takes: `from`, `to`, `currency`, `revenueType`. */
export const ReportQueryParams = ReportQuery
export const RevenueReportResponse = RevenueReport
export const ProfitReportResponse = ProfitReport
export const BurnRateReportResponse = BurnRateReport
export const RunwayReportResponse = RunwayReport
export const ExpensesReportResponse = ExpensesReport
export const SpendingReportResponse = SpendingReport

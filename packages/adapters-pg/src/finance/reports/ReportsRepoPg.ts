import { ReportsRepo } from "@svc/domain"
import { Effect, Layer, Schema } from "effect"
import type { SqlClient } from "effect/sql"
import { decodeRows, orUnavailable, replicaReads, SafeIntegerColumn } from "../../shared/index.ts"

const MonthRow = Schema.Struct({
  month: Schema.String,
  revenue: SafeIntegerColumn,
  revenueTax: SafeIntegerColumn,
  cogs: SafeIntegerColumn,
  operating: SafeIntegerColumn,
  spend: SafeIntegerColumn,
  recurring: SafeIntegerColumn
})

const CategoryRow = Schema.Struct({
  slug: Schema.NullOr(Schema.String),
  name: Schema.NullOr(Schema.String),
  color: Schema.NullOr(Schema.String),
  amount: SafeIntegerColumn
})

const CashRow = Schema.Struct({ cash: SafeIntegerColumn })

/**
 * ReportsRepo on Postgres: reads the monthly totals migration 0024 keeps in step with every write (ADR 0023), on the
 * read replica when there is one (ADR 0052).
 */
export const ReportsRepoPg = Layer.effect(
  ReportsRepo,
  Effect.gen(function* () {
    const reads = yield* replicaReads
    const counted = (sql: SqlClient.SqlClient, teamId: string, currency: string, from: string, to: string) => sql`
      SELECT to_char(a.month, 'YYYY-MM') AS month, c.type, c.slug, c.name, c.color, a.recurring, a.positive,
             CASE WHEN a.currency = ${currency} THEN a.amount_minor ELSE a.base_amount_minor END AS amount,
             CASE WHEN a.currency = ${currency} THEN a.tax_minor ELSE a.base_tax_minor END AS tax
      FROM transaction_month_totals a
      LEFT JOIN transaction_categories c ON c.team_id = a.team_id AND c.id = a.category_id
      WHERE a.team_id = ${teamId}
        AND a.month BETWEEN date_trunc('month', ${from}::date) AND ${to}::date
        AND (a.currency = ${currency} OR a.base_currency = ${currency})
        AND c.excluded IS NOT TRUE`
    return ReportsRepo.of({
      monthlyTotals: (teamId, currency, from, to) =>
        reads(
          "reports.monthlyTotals",
          (sql) => sql`
          WITH counted AS (${counted(sql, teamId, currency, from, to)}),
          classed AS (
            SELECT *, (type = 'revenue' AND positive) OR type = 'contra_revenue' AS is_revenue FROM counted
          )
          SELECT month,
                 coalesce(sum(amount) FILTER (WHERE is_revenue), 0)::text AS revenue,
                 coalesce(sum(tax) FILTER (WHERE is_revenue), 0)::text AS revenue_tax,
                 coalesce(sum(-amount) FILTER (WHERE NOT positive AND type = 'cost_of_goods_sold'), 0)::text AS cogs,
                 coalesce(sum(-amount) FILTER (
                   WHERE NOT positive AND type IS DISTINCT FROM 'cost_of_goods_sold'
                     AND type IS DISTINCT FROM 'contra_revenue'), 0)::text AS operating,
                 coalesce(sum(-amount) FILTER (WHERE NOT positive), 0)::text AS spend,
                 coalesce(sum(-amount) FILTER (WHERE NOT positive AND recurring), 0)::text AS recurring
          FROM classed
          GROUP BY month
          ORDER BY month`
        ).pipe(
          orUnavailable("reports.monthlyTotals"),
          Effect.flatMap(decodeRows(MonthRow, "reports.monthlyTotals")),
          Effect.map((rows) =>
            rows.map((row) => ({
              month: row.month,
              revenueMinor: row.revenue,
              revenueTaxMinor: row.revenueTax,
              costOfGoodsSoldMinor: row.cogs,
              operatingExpensesMinor: row.operating,
              spendMinor: row.spend,
              recurringSpendMinor: row.recurring
            }))
          )
        ),
      spendingByCategory: (teamId, currency, from, to) =>
        reads(
          "reports.spendingByCategory",
          (sql) => sql`
          WITH counted AS (${counted(sql, teamId, currency, from, to)})
          SELECT slug, name, color, sum(-amount)::text AS amount
          FROM counted
          WHERE NOT positive
          GROUP BY slug, name, color
          HAVING sum(amount) <> 0`
        ).pipe(
          orUnavailable("reports.spendingByCategory"),
          Effect.flatMap(decodeRows(CategoryRow, "reports.spendingByCategory")),
          Effect.map((rows) =>
            rows.map((row) => ({
              category:
                row.slug === null
                  ? null
                  : { slug: row.slug, name: row.name ?? row.slug, color: row.color ?? "#606060" },
              amountMinor: row.amount
            }))
          )
        ),
      cash: (teamId, currency) =>
        reads(
          "reports.cash",
          (sql) => sql`
          SELECT coalesce(sum(CASE WHEN currency = ${currency} THEN balance_minor ELSE base_balance_minor END), 0)::text
                   AS cash
          FROM bank_accounts
          WHERE team_id = ${teamId} AND enabled AND type IN ('depository', 'other_asset')
            AND (currency = ${currency} OR (base_currency = ${currency} AND base_balance_minor IS NOT NULL))`
        ).pipe(
          orUnavailable("reports.cash"),
          Effect.flatMap(decodeRows(CashRow, "reports.cash")),
          Effect.map((rows) => rows[0]?.cash ?? 0)
        )
    })
  })
)

import { assert, layer } from "@effect/vitest"
import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { CategoriesRepo, CategoryId, ReportsRepo } from "@svc/domain"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { domainOver, newTeam } from "../../ledger/LedgerSetup.ts"
import { ReportSeed, ReportSeedPorts, transaction } from "./ReportsFixtures.ts"

const COLUMNS = `team_id, month, category_id, currency, base_currency, recurring, positive, amount_minor::text AS amount,
  base_amount_minor::text AS base_amount, tax_minor::text AS tax, base_tax_minor::text AS base_tax, count::text AS count`

/** The month totals as stored, and as computed again from the transactions (rows of zero count left out). */
const storedAndRecomputed = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const order = sql.literal("ORDER BY team_id, month, category_id, currency, base_currency, recurring, positive")
  const stored = yield* sql`SELECT ${sql.literal(COLUMNS)} FROM transaction_month_totals WHERE count <> 0 ${order}`
  const tax = (amount: string) =>
    sql.literal(`CASE WHEN coalesce(t.tax_rate, c.tax_rate, 0) = 0 OR ${amount} IS NULL THEN 0
      ELSE round(${amount} * coalesce(t.tax_rate, c.tax_rate) / (100 + coalesce(t.tax_rate, c.tax_rate))) END`)
  const recomputed = yield* sql`
    SELECT ${sql.literal(COLUMNS)} FROM (
      SELECT t.team_id, date_trunc('month', t.date)::date AS month, t.category_id, t.currency, t.base_currency,
             t.recurring, t.amount_minor > 0 AS positive, sum(t.amount_minor) AS amount_minor,
             sum(coalesce(t.base_amount_minor, 0)) AS base_amount_minor, sum(${tax("t.amount_minor")}) AS tax_minor,
             sum(${tax("t.base_amount_minor")}) AS base_tax_minor, count(*) AS count
      FROM transactions t LEFT JOIN transaction_categories c ON c.team_id = t.team_id AND c.id = t.category_id
      WHERE NOT t.internal AND t.status <> 'excluded'
      GROUP BY 1, 2, 3, 4, 5, 6, 7) fresh
    ${order}`
  return { stored, recomputed }
})

layer(domainOver(ReportSeedPorts.pipe(Layer.provideMerge(PortsPg), Layer.provideMerge(TestDatabase))), {
  timeout: "60 seconds"
})("monthly totals kept in step with writes (Postgres)", (it) => {
  it.effect("inserts, updates, deletes, category tax-rate changes and category deletes keep the totals exact", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const seed = yield* ReportSeed
      const categories = yield* CategoriesRepo
      const reports = yield* ReportsRepo
      const { team } = yield* newTeam
      const all = yield* categories.list(team.id)
      const id = (slug: string) => all.find((c) => c.slug === slug)!.id
      const studio = CategoryId.make(crypto.randomUUID())
      yield* categories.insert([
        {
          ...all.find((c) => c.slug === "consulting-revenue")!,
          id: studio,
          slug: "studio-work",
          name: "Studio work",
          parentId: null,
          system: false
        }
      ])
      const rows = [
        transaction(team.id, "2025-01-05", 12100, { categoryId: id("product-sales"), taxRate: 21 }),
        transaction(team.id, "2025-01-06", 11000, { categoryId: studio }),
        transaction(team.id, "2025-01-07", 5000, { categoryId: studio, taxRate: 0 }),
        transaction(team.id, "2025-02-08", -3000, { categoryId: id("rent"), recurring: true }),
        transaction(team.id, "2025-02-09", 7000, { currency: "EUR", baseAmountMinor: 7700, baseCurrency: "USD" }),
        transaction(team.id, "2025-02-10", -999, { internal: true })
      ]
      yield* seed.transactions(rows)
      const check = (step: string) =>
        Effect.gen(function* () {
          const { stored, recomputed } = yield* storedAndRecomputed
          assert.deepStrictEqual(stored, recomputed, step)
        })
      yield* check("after the insert")

      // the studio category gets a 10 % rate: 11000 * 10 / 110 = 1000 of tax; the 0 % row keeps its own rate
      yield* categories.update(team.id, studio, { taxRate: 10, updatedAt: "2025-03-01T00:00:00.000Z" })
      yield* check("after a category's rate changed")
      const january = (yield* reports.monthlyTotals(team.id, "USD", "2025-01-01", "2025-01-31"))[0]!
      // 12100 * 21 / 121 = 2100, plus 1000
      assert.strictEqual(january.revenueTaxMinor, 3100)
      assert.strictEqual(january.revenueMinor, 12100 + 11000 + 5000)

      yield* sql`UPDATE transactions SET amount_minor = -4000, date = '2025-03-01' WHERE id = ${rows[3]!.id}`
      yield* sql`UPDATE transactions SET internal = false WHERE id = ${rows[5]!.id}`
      yield* sql`UPDATE transactions SET status = 'excluded' WHERE id = ${rows[0]!.id}`
      yield* sql`UPDATE transactions SET category_id = ${id("rent")} WHERE id = ${rows[2]!.id}`
      yield* check("after updates")

      yield* categories.remove(team.id, studio)
      yield* check("after the category was deleted (its transactions uncategorised)")
      yield* sql`DELETE FROM transactions WHERE id = ${rows[4]!.id}`
      yield* check("after a delete")
      const [uncategorised] = yield* reports
        .spendingByCategory(team.id, "USD", "2025-01-01", "2025-12-31")
        .pipe(Effect.map((spend) => spend.filter((s) => s.category === null)))
      assert.strictEqual(uncategorised?.amountMinor, 999)
    })
  )
})

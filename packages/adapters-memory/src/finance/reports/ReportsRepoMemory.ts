import {
  BankAccountsRepo,
  CategoriesRepo,
  type Category,
  type CategorySpend,
  emptyMonth,
  type MonthTotals,
  monthOf,
  ReportsRepo,
  type TeamId,
  type Transaction,
  type TransactionPosition,
  TransactionsRepo,
  taxIncludedMinor
} from "@svc/domain"
import { Effect, Layer, Option } from "effect"

const PAGE = 1000

interface Counted {
  readonly transaction: Transaction
  readonly amountMinor: number
  readonly category: Category | null
}

/**
 * ReportsRepo over the other in-memory ports: it reads the team's transactions (by date, page by page), categories and
 * bank accounts and adds them up with the same rules as the SQL of the Postgres adapter.
 */
export const ReportsRepoMemory = Layer.effect(
  ReportsRepo,
  Effect.gen(function* () {
    const transactions = yield* TransactionsRepo
    const categories = yield* CategoriesRepo
    const bankAccounts = yield* BankAccountsRepo

    const inRange = (teamId: TeamId, from: string, to: string) =>
      Effect.gen(function* () {
        const all: Array<Transaction> = []
        let after: Option.Option<TransactionPosition> = Option.none()
        for (;;) {
          const page = yield* transactions.list({
            teamId,
            filter: { from, to },
            sort: { by: "date", direction: "asc" },
            after,
            limit: PAGE
          })
          for (const details of page.slice(0, PAGE)) all.push(details.transaction)
          const last = page[Math.min(page.length, PAGE) - 1]
          if (page.length <= PAGE || last === undefined) return all
          after = Option.some({ key: last.transaction.date, id: last.transaction.id })
        }
      })

    const counted = (teamId: TeamId, currency: string, from: string, to: string) =>
      Effect.gen(function* () {
        const [rows, teamCategories] = yield* Effect.all([inRange(teamId, from, to), categories.list(teamId)])
        const byId = new Map(teamCategories.map((c) => [c.id as string, c]))
        const result: Array<Counted> = []
        for (const t of rows) {
          if (t.teamId !== teamId || t.date < from || t.date > to) continue
          const category = t.categoryId === null ? null : (byId.get(t.categoryId) ?? null)
          if (t.internal || t.status === "excluded" || category?.excluded === true) continue
          const amountMinor =
            t.currency === currency ? t.amountMinor : t.baseCurrency === currency ? t.baseAmountMinor : null
          if (amountMinor === null) continue
          result.push({ transaction: t, amountMinor, category })
        }
        return result
      })

    return ReportsRepo.of({
      monthlyTotals: (teamId, currency, from, to) =>
        counted(teamId, currency, from, to).pipe(
          Effect.map((rows) => {
            const months = new Map<string, MonthTotals>()
            for (const { transaction: t, amountMinor: amount, category } of rows) {
              const month = monthOf(t.date)
              const totals = months.get(month) ?? emptyMonth(month)
              const type = category?.type ?? null
              const isRevenue = (type === "revenue" && amount > 0) || type === "contra_revenue"
              const spend = amount < 0 ? -amount : 0
              const rate = t.taxRate ?? category?.taxRate ?? null
              months.set(month, {
                month,
                revenueMinor: totals.revenueMinor + (isRevenue ? amount : 0),
                revenueTaxMinor: totals.revenueTaxMinor + (isRevenue ? taxIncludedMinor(amount, rate) : 0),
                costOfGoodsSoldMinor: totals.costOfGoodsSoldMinor + (type === "cost_of_goods_sold" ? spend : 0),
                operatingExpensesMinor:
                  totals.operatingExpensesMinor +
                  (type === "cost_of_goods_sold" || type === "contra_revenue" ? 0 : spend),
                spendMinor: totals.spendMinor + spend,
                recurringSpendMinor: totals.recurringSpendMinor + (t.recurring ? spend : 0)
              })
            }
            return [...months.values()].toSorted((a, b) => (a.month < b.month ? -1 : 1))
          })
        ),
      spendingByCategory: (teamId, currency, from, to) =>
        counted(teamId, currency, from, to).pipe(
          Effect.map((rows) => {
            const byCategory = new Map<string, CategorySpend>()
            for (const { amountMinor, category } of rows) {
              if (amountMinor >= 0) continue
              const key = category?.id ?? ""
              const known = byCategory.get(key)
              byCategory.set(key, {
                category:
                  category === null ? null : { name: category.name, slug: category.slug, color: category.color },
                amountMinor: (known?.amountMinor ?? 0) - amountMinor
              })
            }
            return [...byCategory.values()]
          })
        ),
      cash: (teamId, currency) =>
        bankAccounts
          .list(teamId, { enabled: true })
          .pipe(
            Effect.map((accounts) =>
              accounts
                .filter((a) => a.teamId === teamId && (a.type === "depository" || a.type === "other_asset"))
                .reduce(
                  (sum, a) =>
                    sum +
                    (a.currency === currency
                      ? a.balanceMinor
                      : a.baseCurrency === currency
                        ? (a.baseBalanceMinor ?? 0)
                        : 0),
                  0
                )
            )
          )
    })
  })
)

import { assert, layer } from "@effect/vitest"
import { CategoriesRepo, InvalidReportQuery, Reports, type ReportsRepo, type TeamId } from "@svc/domain"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { domainOver, type LedgerPorts, newTeam } from "../../ledger/LedgerSetup.ts"
import { bankAccount, ReportSeed, transaction } from "./ReportsFixtures.ts"

/** The category ids of a team by slug; `consulting-revenue` gets a 25 % tax rate. */
const categoriesOf = (teamId: TeamId) =>
  Effect.gen(function* () {
    const repo = yield* CategoriesRepo
    const all = yield* repo.list(teamId)
    const id = (slug: string) => all.find((c) => c.slug === slug)!.id
    yield* repo.update(teamId, id("consulting-revenue"), { taxRate: 25, updatedAt: "2025-01-01T00:00:00.000Z" })
    return id
  })

/**
 * The golden team (base currency USD). Amounts in cents; "out" = left out of every report.
 *
 * January 2025
 *   T1  +1,000.00 product-sales, own tax rate 10 %   revenue 100000, tax 100000*10/110 = 9090.9 -> 9091
 *   T2  +500.00 consulting-revenue (category 25 %)   revenue 50000, tax 50000*25/125 = 10000
 *   T3  -100.00 customer-refunds (contra-revenue)     revenue -10000 (no rate: tax 0); spend 10000, not operating
 *   T4  +0.01 income, status pending                  revenue 1
 *   T5  +200.00 EUR product-sales, base 220.00 USD    revenue 22000 (base amount)
 *   T6  +300.00 GBP product-sales, no base amount     out (neither its currency nor a base in USD)
 *   T7  +5,000.00 internal-transfer (excluded)         out
 *   T8  +700.00 product-sales, internal                out
 *   T9  +400.00 product-sales, status excluded         out
 *   T10 +50.00 uncategorised                           not revenue (uncategorised income)
 *   T11 -300.00 inventory (cost of goods sold)         cogs 30000
 *   T12 -99.99 software, recurring                     operating 9999, recurring 9999
 *   T13 -1,000.00 rent, recurring, status archived     operating 100000, recurring 100000
 *   T14 -0.01 uncategorised                            operating 1
 *   T15 -5,000.00 internal-transfer (excluded)         out
 *   T16 -1,000.00 rent, internal                       out
 *   revenue gross = 100000 + 50000 - 10000 + 1 + 22000 = 162001 (1,620.01); tax = 9091 + 10000 = 19091
 *   revenue net = 162001 - 19091 = 142910 (1,429.10)
 *   operating = 9999 + 100000 + 1 = 110000; spend = 30000 + 9999 + 100000 + 1 + 10000 = 150000 (1,500.00)
 *   recurring = 109999 (1,099.99); one-off = 150000 - 109999 = 40001 (400.01)
 *   profit net = 142910 - 30000 - 110000 = 2910 (29.10); profit gross = 142910 - 30000 = 112910 (1,129.10)
 * February 2025: nothing (a gap month: 0 everywhere).
 * March 2025
 *   T17 +99,999.99 service-revenue (on the 31st)       revenue 9999999
 *   T18 -2,000.00 rent                                 operating 200000
 *   T19 -24.99 uncategorised                           operating 2499
 *   spend = operating = 202499 (2,024.99), recurring 0; profit net = 9999999 - 202499 = 9797500 (97,975.00)
 * Previous year: Jan 2024 +810.00 product-sales and -100.00 software; Feb 2024 +50.00 income.
 *   revenue: Jan 81000, Feb 5000, Mar 0; profit net: Jan 81000 - 10000 = 71000, Feb 5000, Mar 0.
 * Bank accounts: depository 50,000.00 USD; other_asset 10,000.00 EUR with base 11,000.00 USD; credit 3,000.00 USD
 *   (not cash); a disabled depository 99,999.99 USD; a depository 1,000.00 GBP without base (left out).
 *   cash in USD = 5000000 + 1100000 = 6100000; cash in EUR = 1000000.
 */
const goldenTeam = Effect.gen(function* () {
  const seed = yield* ReportSeed
  const { team } = yield* newTeam
  const category = yield* categoriesOf(team.id)
  const t = (date: string, amount: number, overrides: Parameters<typeof transaction>[3] = {}) =>
    transaction(team.id, date, amount, overrides)
  yield* seed.transactions([
    t("2025-01-02", 100000, { categoryId: category("product-sales"), taxRate: 10 }),
    t("2025-01-03", 50000, { categoryId: category("consulting-revenue") }),
    t("2025-01-04", -10000, { categoryId: category("customer-refunds") }),
    t("2025-01-05", 1, { categoryId: category("income"), status: "pending" }),
    t("2025-01-06", 20000, {
      categoryId: category("product-sales"),
      currency: "EUR",
      baseAmountMinor: 22000,
      baseCurrency: "USD"
    }),
    t("2025-01-07", 30000, { categoryId: category("product-sales"), currency: "GBP" }),
    t("2025-01-08", 500000, { categoryId: category("internal-transfer") }),
    t("2025-01-09", 70000, { categoryId: category("product-sales"), internal: true }),
    t("2025-01-10", 40000, { categoryId: category("product-sales"), status: "excluded" }),
    t("2025-01-11", 5000),
    t("2025-01-12", -30000, { categoryId: category("inventory") }),
    t("2025-01-13", -9999, { categoryId: category("software"), recurring: true, frequency: "monthly" }),
    t("2025-01-14", -100000, {
      categoryId: category("rent"),
      recurring: true,
      frequency: "monthly",
      status: "archived"
    }),
    t("2025-01-15", -1),
    t("2025-01-16", -500000, { categoryId: category("internal-transfer") }),
    t("2025-01-31", -100000, { categoryId: category("rent"), internal: true }),
    t("2025-03-31", 9999999, { categoryId: category("service-revenue") }),
    t("2025-03-01", -200000, { categoryId: category("rent") }),
    t("2025-03-15", -2499),
    t("2024-01-10", 81000, { categoryId: category("product-sales") }),
    t("2024-01-20", -10000, { categoryId: category("software") }),
    t("2024-02-29", 5000, { categoryId: category("income") })
  ])
  yield* seed.bankAccounts([
    bankAccount(team.id, "depository", "USD", 5000000),
    bankAccount(team.id, "other_asset", "EUR", 1000000, { baseCurrency: "USD", baseBalanceMinor: 1100000 }),
    bankAccount(team.id, "credit", "USD", 300000),
    bankAccount(team.id, "depository", "USD", 9999999, { enabled: false }),
    bankAccount(team.id, "depository", "GBP", 100000)
  ])
  return team
})

/** A query of January to March 2025, given with days inside the first and last month (widened to whole months). */
const Q1 = { from: "2025-01-15", to: "2025-03-10" } as const

const at = (iso: string) => TestClock.setTime(Date.parse(iso))

/**
 * The six reports over the ReportsRepo of any adapter, with exact expected values. The shared layer runs on the live
 * clock (the database pool's timers); the runway tests move a TestClock of their own.
 */
export const reportsContract = <E>(name: string, ports: Layer.Layer<LedgerPorts | ReportsRepo | ReportSeed, E>) =>
  layer(Reports.layer.pipe(Layer.provideMerge(domainOver(ports))), {
    timeout: "60 seconds",
    excludeTestServices: true
  })(`reports (${name})`, (it) => {
    it.effect("revenue: gross and net, contra-revenue, exclusions, base amounts, gaps, previous year", () =>
      Effect.gen(function* () {
        const reports = yield* Reports
        const team = yield* goldenTeam
        const gross = yield* reports.revenue(team.id, Q1)
        // Jan |162001 - 81000| / 81000 = 100.0012 % -> 100; Feb |0 - 5000| / 5000 -> 100; Mar previous 0 -> 0
        assert.deepStrictEqual(gross, {
          summary: { currentTotal: 101620, prevTotal: 860, currency: "USD" },
          meta: { type: "revenue", currency: "USD" },
          result: [
            {
              date: "2025-01-01",
              percentage: { value: 100, status: "positive" },
              current: { date: "2025-01-01", value: 1620.01, currency: "USD" },
              previous: { date: "2024-01-01", value: 810, currency: "USD" }
            },
            {
              date: "2025-02-01",
              percentage: { value: 100, status: "negative" },
              current: { date: "2025-02-01", value: 0, currency: "USD" },
              previous: { date: "2024-02-01", value: 50, currency: "USD" }
            },
            {
              date: "2025-03-01",
              percentage: { value: 0, status: "positive" },
              current: { date: "2025-03-01", value: 99999.99, currency: "USD" },
              previous: { date: "2024-03-01", value: 0, currency: "USD" }
            }
          ]
        })
        const net = yield* reports.revenue(team.id, { ...Q1, revenueType: "net" })
        // currentTotal 142910 + 9999999 = 10142909; Jan |142910 - 81000| / 81000 = 76.43 % -> 76
        assert.deepStrictEqual(net.summary, { currentTotal: 101429.09, prevTotal: 860, currency: "USD" })
        assert.deepStrictEqual(
          net.result.map((r) => [r.current.value, r.percentage.value, r.percentage.status]),
          [
            [1429.1, 76, "positive"],
            [0, 100, "negative"],
            [99999.99, 0, "positive"]
          ]
        )
        // in EUR only T5 counts, in its own amount (200.00); the USD ones have no EUR base amount
        const euros = yield* reports.revenue(team.id, { ...Q1, currency: "EUR" })
        assert.deepStrictEqual(
          euros.result.map((r) => r.current.value),
          [200, 0, 0]
        )
        assert.deepStrictEqual(euros.summary, { currentTotal: 200, prevTotal: 0, currency: "EUR" })
      })
    )

    it.effect("profit: net revenue less cost of goods sold (gross), less every expense (net, the default)", () =>
      Effect.gen(function* () {
        const reports = yield* Reports
        const team = yield* goldenTeam
        const net = yield* reports.profit(team.id, Q1)
        // Jan 2910 vs 71000: |2910 - 71000| / 71000 = 95.9 % -> 96, negative; totals 2910 + 9797500, 71000 + 5000
        assert.deepStrictEqual(net.meta, { type: "profit", currency: "USD" })
        assert.deepStrictEqual(net.summary, { currentTotal: 98004.1, prevTotal: 760, currency: "USD" })
        assert.deepStrictEqual(
          net.result.map((r) => [r.current.value, r.previous.value, r.percentage.value, r.percentage.status]),
          [
            [29.1, 710, 96, "negative"],
            [0, 50, 100, "negative"],
            [97975, 0, 0, "positive"]
          ]
        )
        const gross = yield* reports.profit(team.id, { ...Q1, revenueType: "gross" })
        // Jan 112910 vs 81000: 31910 / 81000 = 39.4 % -> 39; Mar 9999999 (no cost of goods sold)
        assert.deepStrictEqual(
          gross.result.map((r) => [r.current.value, r.previous.value, r.percentage.value]),
          [
            [1129.1, 810, 39],
            [0, 50, 100],
            [99999.99, 0, 0]
          ]
        )
        assert.deepStrictEqual(gross.summary, { currentTotal: 101129.09, prevTotal: 860, currency: "USD" })
      })
    )

    it.effect("burn rate and expenses: every month of the range, recurring apart, the average of one-off spend", () =>
      Effect.gen(function* () {
        const reports = yield* Reports
        const team = yield* goldenTeam
        assert.deepStrictEqual(yield* reports.burnRate(team.id, Q1), [
          { date: "2025-01-01", value: 1500, currency: "USD" },
          { date: "2025-02-01", value: 0, currency: "USD" },
          { date: "2025-03-01", value: 2024.99, currency: "USD" }
        ])
        // averageExpense = (40001 + 0 + 202499) / 3 = 80833.3 -> 80833
        assert.deepStrictEqual(yield* reports.expenses(team.id, Q1), {
          summary: { averageExpense: 808.33, currency: "USD" },
          meta: { type: "expense", currency: "USD" },
          result: [
            { date: "2025-01-01", value: 400.01, currency: "USD", recurring: 1099.99, total: 1500 },
            { date: "2025-02-01", value: 0, currency: "USD", recurring: 0, total: 0 },
            { date: "2025-03-01", value: 2024.99, currency: "USD", recurring: 0, total: 2024.99 }
          ]
        })
      })
    )

    it.effect("spending: by category, largest first, percentages near 100 with the Uncategorized bucket", () =>
      Effect.gen(function* () {
        const reports = yield* Reports
        const team = yield* goldenTeam
        const spending = yield* reports.spending(team.id, Q1)
        // total 300000 + 30000 + 10000 + 9999 + 2500 = 352499; rent 85.1 -> 85, inventory 8.51 -> 9,
        // refunds 2.84 -> 3, software 2.837 -> 3, uncategorised 2500 / 352499 = 0.709 % -> 0.71 (two decimals)
        assert.deepStrictEqual(
          spending.map((s) => [s.slug, s.amount, s.percentage]),
          [
            ["rent", 3000, 85],
            ["inventory", 300, 9],
            ["customer-refunds", 100, 3],
            ["software", 99.99, 3],
            ["uncategorized", 25, 0.71]
          ]
        )
        assert.deepStrictEqual(spending[4], {
          name: "Uncategorized",
          slug: "uncategorized",
          amount: 25,
          currency: "USD",
          color: "#606060",
          percentage: 0.71
        })
        assert.strictEqual(spending[0]!.name, "Rent")
        const sum = spending.reduce((total, s) => total + s.percentage, 0)
        assert.isTrue(Math.abs(sum - 100) <= 1, `percentages sum to ${sum}`)
      })
    )

    it.effect("runway: the median burn of the 3 completed months, the current month excluded", () =>
      Effect.gen(function* () {
        const reports = yield* Reports
        const team = yield* goldenTeam
        // in April: Jan 150000, Feb 0 (not a burn), Mar 202499 -> median (150000 + 202499) / 2 = 176249.5 -> 176250
        // months = 6100000 / 176250 = 34.6 -> 35
        yield* at("2025-04-15T12:00:00.000Z")
        assert.deepStrictEqual(yield* reports.runway(team.id, Q1), { months: 35, medianBurn: 1762.5 })
        // in March: Dec 0, Jan 150000, Feb 0; March's 202499 is not completed -> 6100000 / 150000 = 40.7 -> 41
        yield* at("2025-03-31T23:59:59.000Z")
        assert.deepStrictEqual(yield* reports.runway(team.id, Q1), { months: 41, medianBurn: 1500 })
        // in EUR: cash 1000000, no EUR spend at all -> no burn
        assert.deepStrictEqual(yield* reports.runway(team.id, { ...Q1, currency: "EUR" }), {
          months: 0,
          medianBurn: 0
        })
      }).pipe(Effect.provide(TestClock.layer()))
    )

    it.effect("a team without spend has no runway; a team never sees another team's transactions", () =>
      Effect.gen(function* () {
        const reports = yield* Reports
        const seed = yield* ReportSeed
        yield* goldenTeam
        const { team } = yield* newTeam
        yield* seed.bankAccounts([bankAccount(team.id, "depository", "USD", 500000)])
        yield* seed.transactions([transaction(team.id, "2025-01-20", 12345)])
        yield* at("2025-04-01T00:00:00.000Z")
        assert.deepStrictEqual(yield* reports.runway(team.id, Q1), { months: 0, medianBurn: 0 })
        assert.deepStrictEqual(
          (yield* reports.burnRate(team.id, Q1)).map((p) => p.value),
          [0, 0, 0]
        )
        assert.deepStrictEqual(yield* reports.spending(team.id, Q1), [])
        const revenue = yield* reports.revenue(team.id, Q1)
        assert.deepStrictEqual(revenue.summary, { currentTotal: 0, prevTotal: 0, currency: "USD" })
        const expenses = yield* reports.expenses(team.id, Q1)
        assert.strictEqual(expenses.summary.averageExpense, 0)
      }).pipe(Effect.provide(TestClock.layer()))
    )

    it.effect("from after to, and ranges over 10 years, are refused naming the field", () =>
      Effect.gen(function* () {
        const reports = yield* Reports
        const { team } = yield* newTeam
        const reversed = yield* Effect.flip(reports.revenue(team.id, { from: "2025-03-01", to: "2025-02-28" }))
        assert.instanceOf(reversed, InvalidReportQuery)
        assert.strictEqual((reversed as InvalidReportQuery).field, "from")
        const long = yield* Effect.flip(reports.spending(team.id, { from: "2010-01-01", to: "2025-02-28" }))
        assert.strictEqual((long as InvalidReportQuery).field, "to")
        // the same month is a valid one-month range
        const one = yield* reports.burnRate(team.id, { from: "2025-02-10", to: "2025-02-10" })
        assert.deepStrictEqual(one, [{ date: "2025-02-01", value: 0, currency: "USD" }])
      })
    )
  })

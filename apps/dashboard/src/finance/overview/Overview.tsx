import { type BankAccount, type PromiseClient, paginate } from "@svc/sdk"
import { useState } from "preact/hooks"
import { formatMoney, fromMajor } from "../../format/money.ts"
import { useWorkspace } from "../../session/context.ts"
import { Field, Link, Loading, Money, PageHeader } from "../../ui/components.tsx"
import { useLoad } from "../../ui/hooks.ts"
import { CategoryChart } from "../charts/CategoryChart.tsx"
import { MonthChart, type MonthRow } from "../charts/MonthChart.tsx"
import { monthName } from "../charts/months.ts"
import { cashOf } from "./cash.ts"
import { customRange, PERIODS, type PeriodKind, presetRange, type Range, todayUtc } from "./period.ts"
import "./overview.css"

const loadAccounts = async (client: PromiseClient): Promise<ReadonlyArray<BankAccount>> => {
  const accounts: Array<BankAccount> = []
  for await (const account of paginate(client.bankAccounts.list, { query: { limit: 100 } })) accounts.push(account)
  return accounts
}

/** Cash now and the runway at today's burn: neither moves with the period. */
const loadPosition = (client: PromiseClient, currency: string) =>
  Promise.all([loadAccounts(client), client.reports.runway({ query: { currency } })]).then(([accounts, runway]) => ({
    cash: cashOf(accounts, currency),
    runway
  }))

/** The period's reports, in the same currency and range each. */
const loadReports = (client: PromiseClient, range: Range, currency: string) => {
  const query = { from: range.from, to: range.to, currency }
  return Promise.all([
    client.reports.revenue({ query }),
    client.reports.profit({ query }),
    client.reports.burnRate({ query }),
    client.reports.expenses({ query }),
    client.reports.spending({ query })
  ]).then(([revenue, profit, burnRate, expenses, spending]) => ({ revenue, profit, burnRate, expenses, spending }))
}

type Reports = Awaited<ReturnType<typeof loadReports>>

/** How a total compares with the same months a year earlier, in words. */
const against = (current: number, previous: number, currency: string) =>
  `${current > previous ? "▲ up" : current < previous ? "▼ down" : "unchanged"} from ${formatMoney(previous, currency)} a year earlier`

/** The period the reader picked: a preset, or from and to days with what is wrong with them. */
const PeriodPicker = ({
  kind,
  from,
  to,
  errors,
  onKind,
  onCustom
}: {
  readonly kind: PeriodKind
  readonly from: string
  readonly to: string
  readonly errors: { readonly from?: string; readonly to?: string }
  readonly onKind: (kind: PeriodKind) => void
  readonly onCustom: (from: string, to: string) => void
}) => (
  <div class="filters">
    <Field label="Period" help="Whole months, in UTC, up to today">
      {(props) => (
        <select {...props} value={kind} onChange={(event) => onKind(event.currentTarget.value as PeriodKind)}>
          {PERIODS.map((period) => (
            <option key={period.kind} value={period.kind}>
              {period.label}
            </option>
          ))}
        </select>
      )}
    </Field>
    {kind === "custom" ? (
      <>
        <Field label="From" error={errors.from}>
          {(props) => (
            <input {...props} type="date" value={from} onChange={(event) => onCustom(event.currentTarget.value, to)} />
          )}
        </Field>
        <Field label="To" error={errors.to}>
          {(props) => (
            <input {...props} type="date" value={to} onChange={(event) => onCustom(from, event.currentTarget.value)} />
          )}
        </Field>
      </>
    ) : null}
  </div>
)

/** Cash, burn and runway: where the team stands today. */
const Position = ({ currency }: { readonly currency: string }) => {
  const { client } = useWorkspace()
  const position = useLoad(() => loadPosition(client, currency), [client, currency])
  return (
    <Loading loaded={position.loaded} label="cash and runway">
      {({ cash, runway }) => (
        <dl class="figures" aria-label="Today">
          <div class="card">
            <dt>Cash</dt>
            <dd>
              <Money amount={cash.amountMinor} currency={currency} />
              <small>
                {cash.counted === 0
                  ? "No bank account holds cash yet"
                  : `in ${cash.counted} bank account${cash.counted === 1 ? "" : "s"}`}
                {cash.uncounted.length === 0
                  ? null
                  : `; not counted, without a balance in ${currency}: ${cash.uncounted.join(", ")}`}
              </small>
            </dd>
          </div>
          <div class="card">
            <dt>Burn</dt>
            <dd>
              <Money amount={fromMajor(runway.medianBurn, currency)} currency={currency} />
              <small>a month: the median of the last three completed months</small>
            </dd>
          </div>
          <div class="card">
            <dt>Runway</dt>
            <dd>
              {runway.medianBurn === 0 ? "No burn" : `${runway.months} month${runway.months === 1 ? "" : "s"}`}
              <small>
                {runway.medianBurn === 0
                  ? "nothing went out in the last three completed months"
                  : "of cash at that burn"}
              </small>
            </dd>
          </div>
        </dl>
      )}
    </Loading>
  )
}

const monthRows = (report: Reports["revenue"] | Reports["profit"], currency: string): ReadonlyArray<MonthRow> =>
  report.result.map((month) => ({
    date: month.date,
    values: [fromMajor(month.current.value, currency), fromMajor(month.previous.value, currency)]
  }))

/** The period's figures and charts, from the reports. */
const PeriodReports = ({ reports, currency }: { readonly reports: Reports; readonly currency: string }) => {
  const { revenue, profit, burnRate, spending } = reports
  const nothingCounted =
    spending.length === 0 &&
    burnRate.every((month) => month.value === 0) &&
    [...revenue.result, ...profit.result].every((month) => month.current.value === 0)
  return (
    <>
      <dl class="figures" aria-label="The period">
        {(
          [
            ["Revenue", revenue],
            ["Profit", profit]
          ] as const
        ).map(([label, report]) => {
          const current = fromMajor(report.summary.currentTotal, currency)
          const previous = fromMajor(report.summary.prevTotal, currency)
          return (
            <div key={label} class="card">
              <dt>{label}</dt>
              <dd>
                <Money amount={current} currency={currency} />
                <small>{against(current, previous, currency)}</small>
              </dd>
            </div>
          )
        })}
      </dl>
      {nothingCounted ? (
        <p class="muted empty">
          No income or spending in this period; record it under <Link to="/finance/transactions">Transactions</Link>.
        </p>
      ) : (
        <Charts reports={reports} currency={currency} />
      )}
    </>
  )
}

/** The period's reports by month and by category. */
const Charts = ({ reports, currency }: { readonly reports: Reports; readonly currency: string }) => {
  const { revenue, profit, burnRate, expenses, spending } = reports
  const months = revenue.result.length
  const burnRows = burnRate.map((month) => ({ date: month.date, values: [fromMajor(month.value, currency)] }))
  const highest = burnRows.reduce<MonthRow | null>(
    (best, row) => (best === null || (row.values[0] ?? 0) > (best.values[0] ?? 0) ? row : best),
    null
  )
  const spentMinor = spending.reduce((sum, item) => sum + fromMajor(item.amount, currency), 0)
  const comparison = [
    { label: "This period", tone: "current" },
    { label: "A year earlier", tone: "previous" }
  ] as const
  return (
    <>
      <section aria-labelledby="finance-charts">
        <h2 id="finance-charts">By month</h2>
        <MonthChart
          title="Revenue by month"
          summary={`${formatMoney(fromMajor(revenue.summary.currentTotal, currency), currency)} over ${months} month${months === 1 ? "" : "s"}, against ${formatMoney(fromMajor(revenue.summary.prevTotal, currency), currency)} a year earlier.`}
          series={comparison}
          rows={monthRows(revenue, currency)}
          currency={currency}
          layout="grouped"
        />
        <MonthChart
          title="Profit by month"
          summary={`${formatMoney(fromMajor(profit.summary.currentTotal, currency), currency)} over ${months} month${months === 1 ? "" : "s"}, against ${formatMoney(fromMajor(profit.summary.prevTotal, currency), currency)} a year earlier.`}
          series={comparison}
          rows={monthRows(profit, currency)}
          currency={currency}
          layout="grouped"
        />
        <MonthChart
          title="Burn rate by month"
          summary={
            highest === null || (highest.values[0] ?? 0) === 0
              ? "Nothing went out in this period."
              : `Most went out in ${monthName(highest.date)}: ${formatMoney(highest.values[0] ?? 0, currency)}.`
          }
          series={[{ label: "Burn", tone: "burn" }]}
          rows={burnRows}
          currency={currency}
          layout="grouped"
        />
        <MonthChart
          title="Expenses by month"
          summary={`One-off spend averaged ${formatMoney(fromMajor(expenses.summary.averageExpense, currency), currency)} a month.`}
          series={[
            { label: "Recurring", tone: "recurring" },
            { label: "One-off", tone: "oneoff" }
          ]}
          rows={expenses.result.map((month) => ({
            date: month.date,
            values: [fromMajor(month.recurring, currency), fromMajor(month.value, currency)],
            total: fromMajor(month.total, currency)
          }))}
          currency={currency}
          layout="stacked"
        />
      </section>
      <section aria-labelledby="finance-categories">
        <h2 id="finance-categories">By category</h2>
        {spending.length === 0 ? (
          <p class="muted">Nothing was spent in this period.</p>
        ) : (
          <CategoryChart
            title="Spending by category"
            summary={`${formatMoney(spentMinor, currency)} in ${spending.length} categor${spending.length === 1 ? "y" : "ies"}, largest first.`}
            items={spending.map((item) => ({
              slug: item.slug,
              name: item.name,
              color: item.color,
              amountMinor: fromMajor(item.amount, currency),
              percentage: item.percentage
            }))}
            currency={currency}
          />
        )}
      </section>
    </>
  )
}

/** The reports of the picked period; a custom period loads once both of its days are right. */
const Period = ({ range, currency }: { readonly range: Range; readonly currency: string }) => {
  const { client } = useWorkspace()
  const reports = useLoad(() => loadReports(client, range, currency), [client, range.from, range.to, currency])
  return (
    <Loading loaded={reports.loaded} label="reports">
      {(value) => <PeriodReports reports={value} currency={currency} />}
    </Loading>
  )
}

/** What a founder checks first: cash, burn and runway, the period's revenue and profit, and where the money went. */
export const Overview = () => {
  const { team } = useWorkspace()
  const [today] = useState(() => todayUtc(Date.now()))
  const [kind, setKind] = useState<PeriodKind>("3m")
  const [custom, setCustom] = useState(() => presetRange("3m", today))
  if (team === null) return <PageHeader title="Overview">Create your team to see its figures.</PageHeader>
  const currency = team.baseCurrency
  const picked = kind === "custom" ? customRange(custom.from, custom.to) : { range: presetRange(kind, today) }
  return (
    <>
      <PageHeader title="Overview">
        Cash, burn and runway today; revenue, profit and spending over a period, in {currency}. Read only.
      </PageHeader>
      <Position currency={currency} />
      <h2>Over a period</h2>
      <PeriodPicker
        kind={kind}
        from={custom.from}
        to={custom.to}
        errors={"errors" in picked ? picked.errors : {}}
        onKind={(next) => {
          if (next === "custom" && kind !== "custom" && "range" in picked) setCustom(picked.range)
          setKind(next)
        }}
        onCustom={(from, to) => setCustom({ from, to })}
      />
      {"range" in picked ? <Period range={picked.range} currency={currency} /> : null}
    </>
  )
}

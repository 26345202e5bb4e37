import type { SpendStats } from "@svc/sdk"
import { formatMoney } from "../format/money.ts"
import { formatDate } from "../format/time.ts"
import { Money } from "../ui/components.tsx"

type KeyStats = SpendStats["keys"][number]

const WIDTH = 600
const HEIGHT = 120

/** A bar per day of one key's spend, with a text alternative summing it up. */
const DailyBars = ({ stats }: { readonly stats: KeyStats }) => {
  const max = Math.max(1, ...stats.daily.map((day) => day.amount))
  const total = stats.daily.reduce((sum, day) => sum + day.amount, 0)
  const busiest = stats.daily.reduce<{ date: string; amount: number } | null>(
    (best, day) => (best === null || day.amount > best.amount ? day : best),
    null
  )
  const barWidth = WIDTH / Math.max(1, stats.daily.length)
  const summary =
    `${stats.keyName}: ${formatMoney(total, stats.currency)} over ${stats.daily.length} days` +
    (busiest === null || busiest.amount === 0
      ? ", nothing spent."
      : `, most on ${formatDate(busiest.date)} (${formatMoney(busiest.amount, stats.currency)}).`)
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={summary} preserveAspectRatio="none">
        {stats.daily.map((day, index) => {
          const height = (day.amount / max) * (HEIGHT - 4)
          return (
            <rect
              key={day.date}
              x={index * barWidth + 1}
              y={HEIGHT - height}
              width={Math.max(1, barWidth - 2)}
              height={height}
              class="bar"
            >
              <title>
                {formatDate(day.date)}: {formatMoney(day.amount, stats.currency)}
              </title>
            </rect>
          )
        })}
      </svg>
      <figcaption>{summary}</figcaption>
    </figure>
  )
}

/** How much of a budget is used, as a meter with the numbers beside it. */
const BudgetUse = ({
  label,
  used,
  limit,
  currency
}: {
  readonly label: string
  readonly used: number
  readonly limit: number | null
  readonly currency: string
}) => (
  <div class="budget">
    <span>{label}</span>
    {limit === null ? (
      <span>
        <Money amount={used} currency={currency} /> <span class="muted">(no budget)</span>
      </span>
    ) : (
      <>
        <meter min={0} max={limit} value={Math.min(used, limit)} aria-label={`${label} used`} />
        <span>
          <Money amount={used} currency={currency} /> of <Money amount={limit} currency={currency} />
        </span>
      </>
    )}
  </div>
)

/** Spend per day per key over the period, and each key's budget used today and this month. */
export const SpendChart = ({ keys }: { readonly keys: ReadonlyArray<KeyStats> }) =>
  keys.length === 0 ? (
    <p class="muted">No spending keys have spent anything yet.</p>
  ) : (
    <ul class="key-stats" aria-label="Spend per key">
      {keys.map((stats) => (
        <li key={stats.keyId} class="card">
          <h3>{stats.keyName}</h3>
          <DailyBars stats={stats} />
          <BudgetUse label="Today" used={stats.usedToday} limit={stats.dailyLimit} currency={stats.currency} />
          <BudgetUse
            label="This month"
            used={stats.usedThisMonth}
            limit={stats.monthlyLimit}
            currency={stats.currency}
          />
        </li>
      ))}
    </ul>
  )

import { useId, useRef, useState } from "preact/hooks"
import { formatMoney } from "../../format/money.ts"
import { monthLabel, monthName } from "./months.ts"
import "./charts.css"
import { ChartTable } from "./ChartTable.tsx"

/** One series of a month chart: its name and the colour class it is drawn in. */
export interface Series {
  readonly label: string
  readonly tone: "current" | "previous" | "burn" | "recurring" | "oneoff"
}

/** One month of a chart: its first day and one amount in minor units per series, with the report's total if any. */
export interface MonthRow {
  readonly date: string
  readonly values: ReadonlyArray<number>
  readonly total?: number
}

const UNIT = 100
const HEIGHT = 100

/** The value range drawn: zero always inside it, so bars grow up from zero (or down, for a loss). */
const extentOf = (rows: ReadonlyArray<MonthRow>, stacked: boolean) => {
  const heights = rows.flatMap((row) =>
    stacked ? [row.values.reduce((sum, value) => sum + value, 0)] : (row.values as Array<number>)
  )
  const low = Math.min(0, ...heights)
  const high = Math.max(0, ...heights)
  return { low, high: high === low ? low + 1 : high }
}

/** Exact amounts of one month, as its tooltip and its label read them. */
const describeMonth = (row: MonthRow, series: ReadonlyArray<Series>, currency: string) =>
  [
    ...series.map((s, index) => `${s.label} ${formatMoney(row.values[index] ?? 0, currency)}`),
    ...(row.total === undefined ? [] : [`Total ${formatMoney(row.total, currency)}`])
  ].join(", ")

/**
 * Amounts by month as bars, side by side per series (`grouped`) or on top of one another (`stacked`). Each month is a
 * button that shows its exact amounts in a tooltip, on hover and on focus; one Tab reaches the chart and the arrow keys
 * move between months. The same numbers are a table the reader can open.
 */
export const MonthChart = ({
  title,
  summary,
  series,
  rows,
  currency,
  layout
}: {
  readonly title: string
  readonly summary: string
  readonly series: ReadonlyArray<Series>
  readonly rows: ReadonlyArray<MonthRow>
  readonly currency: string
  readonly layout: "grouped" | "stacked"
}) => {
  const id = useId()
  const [active, setActive] = useState<number | null>(null)
  const [focusIndex, setFocusIndex] = useState(0)
  const buttons = useRef<Array<HTMLButtonElement | null>>([])
  const stacked = layout === "stacked"
  const { low, high } = extentOf(rows, stacked)
  const y = (value: number) => HEIGHT - ((value - low) / (high - low)) * HEIGHT
  const width = rows.length * UNIT
  const barWidth = stacked ? UNIT * 0.6 : (UNIT * 0.7) / series.length
  const moveTo = (index: number) => {
    const next = Math.max(0, Math.min(rows.length - 1, index))
    setFocusIndex(next)
    buttons.current[next]?.focus()
  }
  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const target =
      event.key === "ArrowRight" || event.key === "ArrowDown"
        ? index + 1
        : event.key === "ArrowLeft" || event.key === "ArrowUp"
          ? index - 1
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? rows.length - 1
              : null
    if (target === null) return
    event.preventDefault()
    moveTo(target)
  }
  const shown = active === null ? undefined : rows[active]
  return (
    <figure class="fin-chart" aria-labelledby={`${id}-title`}>
      <figcaption>
        <span id={`${id}-title`} class="fin-chart-title">
          {title}
        </span>{" "}
        <span class="muted">{summary}</span>
      </figcaption>
      <ul class="legend" aria-hidden="true">
        {series.map((s) => (
          <li key={s.label}>
            <span class={`swatch tone-${s.tone}`} /> {s.label}
          </li>
        ))}
      </ul>
      <div class="plot">
        <span class="axis axis-high" aria-hidden="true">
          {formatMoney(high, currency)}
        </span>
        {low < 0 ? (
          <span class="axis axis-low" aria-hidden="true">
            {formatMoney(low, currency)}
          </span>
        ) : null}
        <svg viewBox={`0 0 ${width} ${HEIGHT}`} preserveAspectRatio="none" aria-hidden="true">
          {rows.map((row, index) => {
            const left = index * UNIT + (UNIT - (stacked ? barWidth : barWidth * series.length)) / 2
            let base = 0
            return (
              <g key={row.date} class={active === index ? "month active" : "month"}>
                {row.values.map((value, s) => {
                  const from = stacked ? base : 0
                  const to = from + value
                  if (stacked) base = to
                  const top = Math.min(y(from), y(to))
                  return (
                    <rect
                      key={series[s]?.label ?? s}
                      class={`tone-${series[s]?.tone ?? "current"}`}
                      x={stacked ? left : left + s * barWidth}
                      y={top}
                      width={stacked ? barWidth : barWidth * 0.9}
                      height={Math.abs(y(to) - y(from))}
                    />
                  )
                })}
              </g>
            )
          })}
          {low < 0 ? (
            <line x1={0} x2={width} y1={y(0)} y2={y(0)} class="zero" vector-effect="non-scaling-stroke" />
          ) : null}
        </svg>
        <div class="hits" style={{ gridTemplateColumns: `repeat(${rows.length}, 1fr)` }}>
          {rows.map((row, index) => (
            <button
              key={row.date}
              type="button"
              ref={(element) => {
                buttons.current[index] = element
              }}
              tabIndex={index === focusIndex ? 0 : -1}
              aria-label={`${monthName(row.date)}: ${describeMonth(row, series, currency)}`}
              aria-describedby={`${id}-title`}
              onFocus={() => {
                setFocusIndex(index)
                setActive(index)
              }}
              onBlur={() => setActive(null)}
              onMouseEnter={() => setActive(index)}
              onMouseLeave={() => setActive(null)}
              onKeyDown={(event) => onKeyDown(event, index)}
            />
          ))}
        </div>
        {shown === undefined || active === null ? null : (
          <div
            class={active < rows.length / 2 ? "tip tip-left" : "tip tip-right"}
            style={
              active < rows.length / 2
                ? { left: `${(active / rows.length) * 100}%` }
                : { right: `${((rows.length - active - 1) / rows.length) * 100}%` }
            }
            aria-hidden="true"
          >
            <strong>{monthName(shown.date)}</strong>
            {series.map((s, index) => (
              <span key={s.label}>
                <span class={`swatch tone-${s.tone}`} /> {s.label}: {formatMoney(shown.values[index] ?? 0, currency)}
              </span>
            ))}
            {shown.total === undefined ? null : <span>Total: {formatMoney(shown.total, currency)}</span>}
          </div>
        )}
      </div>
      <ol class="months" aria-hidden="true" style={{ gridTemplateColumns: `repeat(${rows.length}, 1fr)` }}>
        {rows.map((row) => (
          <li key={row.date}>{monthLabel(row.date)}</li>
        ))}
      </ol>
      <ChartTable title={title}>
        <thead>
          <tr>
            <th scope="col">Month</th>
            {series.map((s) => (
              <th key={s.label} scope="col" class="num">
                {s.label}
              </th>
            ))}
            {rows.some((row) => row.total !== undefined) ? (
              <th scope="col" class="num">
                Total
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.date}>
              <th scope="row">{monthName(row.date)}</th>
              {series.map((s, index) => (
                <td key={s.label} class="num" data-label={s.label}>
                  {formatMoney(row.values[index] ?? 0, currency)}
                </td>
              ))}
              {row.total === undefined ? null : (
                <td class="num" data-label="Total">
                  {formatMoney(row.total, currency)}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </ChartTable>
    </figure>
  )
}

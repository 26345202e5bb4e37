import { formatMoney } from "../../format/money.ts"
import "./charts.css"
import { ChartTable } from "./ChartTable.tsx"

/** One category's spend: its name and own colour, the amount in minor units and its share in percent. */
export interface CategorySpend {
  readonly slug: string
  readonly name: string
  readonly color: string
  readonly amountMinor: number
  readonly percentage: number
}

const percent = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 })

/**
 * Spend by category, largest first, as bars in the categories' own colours, each labelled with its exact amount and
 * share (so no colour has to be told apart); the same numbers are a table the reader can open.
 */
export const CategoryChart = ({
  title,
  summary,
  items,
  currency
}: {
  readonly title: string
  readonly summary: string
  readonly items: ReadonlyArray<CategorySpend>
  readonly currency: string
}) => {
  const largest = Math.max(1, ...items.map((item) => item.amountMinor))
  return (
    <figure class="fin-chart" aria-label={title}>
      <figcaption>
        <span class="fin-chart-title">{title}</span> <span class="muted">{summary}</span>
      </figcaption>
      <ul class="category-bars">
        {items.map((item) => (
          <li key={item.slug}>
            <span class="category-name">
              <span class="swatch" style={{ background: item.color }} /> {item.name}
            </span>
            <span class="category-track" aria-hidden="true">
              <span
                class="category-bar"
                style={{ width: `${(item.amountMinor / largest) * 100}%`, background: item.color }}
              />
            </span>
            <span class="num">
              {formatMoney(item.amountMinor, currency)} <span class="muted">({percent.format(item.percentage)}%)</span>
            </span>
          </li>
        ))}
      </ul>
      <ChartTable title={title}>
        <thead>
          <tr>
            <th scope="col">Category</th>
            <th scope="col" class="num">
              Spent
            </th>
            <th scope="col" class="num">
              Share
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={item.slug}>
              <th scope="row">{item.name}</th>
              <td class="num" data-label="Spent">
                {formatMoney(item.amountMinor, currency)}
              </td>
              <td class="num" data-label="Share">
                {percent.format(item.percentage)}%
              </td>
            </tr>
          ))}
        </tbody>
      </ChartTable>
    </figure>
  )
}

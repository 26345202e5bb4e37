import type { ComponentChildren } from "preact"

/** A chart's text alternative: its figures as a table the reader opens, captioned with the chart's title. */
export const ChartTable = ({ title, children }: { readonly title: string; readonly children: ComponentChildren }) => (
  <details class="chart-table">
    <summary>Show as a table</summary>
    <div class="table-wrap">
      <table class="stack">
        <caption class="visually-hidden">{title}</caption>
        {children}
      </table>
    </div>
  </details>
)

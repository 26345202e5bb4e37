/** The periods the overview offers: whole UTC months up to today, as the reports count them. */
export type PeriodKind = "month" | "3m" | "6m" | "12m" | "ytd" | "custom"

export const PERIODS: ReadonlyArray<{ readonly kind: PeriodKind; readonly label: string }> = [
  { kind: "month", label: "This month" },
  { kind: "3m", label: "Last 3 months" },
  { kind: "6m", label: "Last 6 months" },
  { kind: "12m", label: "Last 12 months" },
  { kind: "ytd", label: "Year to date" },
  { kind: "custom", label: "Custom" }
]

/** A report range, both ends `YYYY-MM-DD` and inclusive. */
export interface Range {
  readonly from: string
  readonly to: string
}

const MONTHS_BACK: Readonly<Record<"month" | "3m" | "6m" | "12m", number>> = { month: 0, "3m": 2, "6m": 5, "12m": 11 }

/** Today as `YYYY-MM-DD` in UTC, the day the reports' months are cut by. */
export const todayUtc = (nowMs: number): string => new Date(nowMs).toISOString().slice(0, 10)

/**
 * The range of a preset period on `today`: the current month and the months before it (the last 12 months being the
 * reports' own default), or the year from January.
 */
export const presetRange = (kind: Exclude<PeriodKind, "custom">, today: string): Range => {
  const year = Number(today.slice(0, 4))
  const month = Number(today.slice(5, 7)) - 1
  const from =
    kind === "ytd" ? `${year}-01-01` : new Date(Date.UTC(year, month - MONTHS_BACK[kind], 1)).toISOString().slice(0, 10)
  return { from, to: today }
}

const isDate = (text: string) => /^\d{4}-\d{2}-\d{2}$/u.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`))

/** A custom range typed by the reader, or what is wrong with it by field. */
export const customRange = (
  from: string,
  to: string
): { readonly range: Range } | { readonly errors: { readonly from?: string; readonly to?: string } } => {
  const errors = {
    ...(isDate(from) ? {} : { from: "Enter the first day" }),
    ...(isDate(to) ? {} : { to: "Enter the last day" })
  }
  if (Object.keys(errors).length > 0) return { errors }
  if (from > to) return { errors: { from: "The first day must not be after the last" } }
  return { range: { from, to } }
}

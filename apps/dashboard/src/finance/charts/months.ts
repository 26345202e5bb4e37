const monthLong = new Intl.DateTimeFormat(undefined, { month: "long", year: "numeric", timeZone: "UTC" })
const monthShort = new Intl.DateTimeFormat(undefined, { month: "short", timeZone: "UTC" })

const atMidnight = (date: string) => new Date(`${date.slice(0, 10)}T00:00:00Z`)

/** A report month (`2026-03-01`) in the reader's words: "March 2026". */
export const monthName = (date: string): string => monthLong.format(atMidnight(date))

/** A report month as a chart's axis label: "Mar". */
export const monthLabel = (date: string): string => monthShort.format(atMidnight(date))

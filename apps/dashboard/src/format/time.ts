const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" })
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" })
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" })

/** An ISO timestamp as a date and time in the reader's locale and time zone. */
export const formatDateTime = (iso: string): string => dateTime.format(new Date(iso))

/** An ISO date (or timestamp) as a date in the reader's locale. */
export const formatDate = (iso: string): string =>
  dateOnly.format(new Date(iso.length === 10 ? `${iso}T00:00:00Z` : iso))

const UNITS: ReadonlyArray<readonly [Intl.RelativeTimeFormatUnit, number]> = [
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
  ["second", 1_000]
]

/** How far `iso` is from `nowMs`, in words of the reader's locale ("in 3 hours", "5 minutes ago"). */
export const formatRelative = (iso: string, nowMs: number): string => {
  const difference = new Date(iso).getTime() - nowMs
  for (const [unit, size] of UNITS) {
    if (Math.abs(difference) >= size || unit === "second") return relative.format(Math.round(difference / size), unit)
  }
  return relative.format(0, "second")
}

import { DateTime, Schema } from "effect"

const isKnownTimeZone = (zone: string): boolean => {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone })
    return true
  } catch {
    return false
  }
}

/** An IANA time zone name such as `Europe/Paris` or `America/Argentina/Buenos_Aires`, or `UTC`. */
export const TimeZoneName = Schema.String.check(
  Schema.isPattern(/^(?:UTC|[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+){1,2})$/u, {
    message: 'expected an IANA time zone name such as "Europe/Paris" or "UTC"'
  }),
  Schema.makeFilter((zone: string) => isKnownTimeZone(zone) || `unknown IANA time zone ${JSON.stringify(zone)}`)
).annotate({ description: 'An IANA time zone name, e.g. "Europe/Paris", "America/New_York" or "UTC".' })

/** A day of the week in allowed hours. */
export const Weekday = Schema.Literals(["mon", "tue", "wed", "thu", "fri", "sat", "sun"])

/** A day of the week in allowed hours. */
export type Weekday = typeof Weekday.Type

/** A wall-clock time of day, `HH:MM` on a 24-hour clock. */
const StartTime = Schema.String.check(
  Schema.isPattern(/^(?:[01]\d|2[0-3]):[0-5]\d$/u, {
    message: 'expected a time of day "HH:MM" from "00:00" to "23:59"'
  })
)

/** A wall-clock end time, `HH:MM`, where `24:00` is the end of the day. */
const EndTime = Schema.String.check(
  Schema.isPattern(/^(?:(?:[01]\d|2[0-3]):[0-5]\d|24:00)$/u, {
    message: 'expected a time of day "HH:MM" from "00:00" to "24:00"'
  })
)

const minuteOfDay = (time: string): number => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5))

/**
 * When requests are allowed, in the wall-clock time of an IANA time zone: on `days`, from `from` (inclusive) to `to`
 * (exclusive). A window whose `to` is at or before its `from` runs past midnight into the next day; it belongs to the
 * day it starts on.
 */
export const AllowedHours = Schema.Struct({
  timezone: TimeZoneName,
  days: Schema.Array(Weekday)
    .check(
      Schema.isMinLength(1, { message: "expected at least one day" }),
      Schema.makeFilter((days: ReadonlyArray<string>) => new Set(days).size === days.length || "expected distinct days")
    )
    .annotate({ description: "The days a window starts on, distinct; a window past midnight runs into the next day." }),
  from: StartTime.annotate({ description: 'Start of the window, local wall-clock time "HH:MM" (inclusive).' }),
  to: EndTime.annotate({
    description: 'End of the window, "HH:MM" (exclusive; "24:00" is midnight); at or before `from`, the next day.'
  })
})
  .annotate({
    description:
      "When requests are allowed, in the wall-clock time of an IANA time zone (clock changes included). A request " +
      "outside gets what `outsideHours` says.",
    examples: [
      { timezone: "Europe/Paris", days: ["mon", "tue", "wed", "thu", "fri"], from: "08:00", to: "19:00" },
      { timezone: "America/New_York", days: ["sat"], from: "22:00", to: "06:00" }
    ]
  })
  .check(
    Schema.makeFilter(
      (hours: { readonly from: string; readonly to: string }) =>
        hours.from !== hours.to || "expected from and to to differ (use from 00:00 to 24:00 for the whole day)"
    )
  )

/** When requests are allowed. */
export type AllowedHours = typeof AllowedHours.Type

/** What a request outside the allowed hours gets: sent to approval, or denied (the default). */
export const OutsideHours = Schema.Literals(["approval", "deny"])

/** What a request outside the allowed hours gets. */
export type OutsideHours = typeof OutsideHours.Type

const WEEKDAYS: ReadonlyArray<Weekday> = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]

const MILLIS_PER_DAY = 86_400_000

const localMinute = (timezone: string, millis: number): { readonly day: number; readonly minute: number } => {
  const parts = DateTime.toParts(DateTime.makeZonedUnsafe(millis, { timeZone: timezone }))
  return { day: Date.UTC(parts.year, parts.month - 1, parts.day), minute: parts.hour * 60 + parts.minute }
}

/**
 * The first instant at which the wall clock in `timezone` shows `minute` (0-2880) of the civil date `civilDayMillis`
 * or later: its first occurrence when a clock change repeats it, the moment of the change when a change skips it.
 */
const instantOf = (timezone: string, civilDayMillis: number, minute: number): number => {
  const day = civilDayMillis + Math.floor(minute / 1440) * MILLIS_PER_DAY
  const wall = minute % 1440
  const civil = DateTime.toPartsUtc(DateTime.makeUnsafe(day))
  const at = (disambiguation: "earlier" | "later") =>
    DateTime.toEpochMillis(
      DateTime.makeZonedUnsafe(
        {
          year: civil.year,
          month: civil.month,
          day: civil.day,
          hour: Math.floor(wall / 60),
          minute: wall % 60
        },
        { timeZone: timezone, adjustForTimeZone: true, disambiguation }
      )
    )
  const earlier = at("earlier")
  const shown = localMinute(timezone, earlier)
  if (shown.day === day && shown.minute === wall) return earlier
  // Skipped by a clock change: the change lies between the two readings; find its minute.
  const reached = (millis: number) => {
    const local = localMinute(timezone, millis)
    return local.day > day || (local.day === day && local.minute >= wall)
  }
  let low = Math.min(earlier, at("later"))
  let high = Math.max(earlier, at("later"))
  while (high - low > 60_000) {
    const middle = low + Math.floor((high - low) / 120_000) * 60_000
    if (reached(middle)) high = middle
    else low = middle
  }
  return high
}

/** Whether a request at `nowMillis` falls in the allowed hours, and the earliest allowed moment at or after it. */
export interface AllowedHoursCheck {
  readonly inside: boolean
  /** `nowMillis` when inside; otherwise the start of the next window. */
  readonly nextAllowedAt: number
}

/** Checks `nowMillis` against `hours`; pure and total for hours the schema accepts. */
export const checkAllowedHours = (hours: AllowedHours, nowMillis: number): AllowedHoursCheck => {
  const local = DateTime.toParts(DateTime.makeZonedUnsafe(nowMillis, { timeZone: hours.timezone }))
  const today = Date.UTC(local.year, local.month - 1, local.day)
  const from = minuteOfDay(hours.from)
  const to = minuteOfDay(hours.to)
  const end = to > from ? to : to + 1440
  let next = Number.POSITIVE_INFINITY
  for (let offset = -1; offset <= 8; offset++) {
    const day = today + offset * MILLIS_PER_DAY
    const weekday = WEEKDAYS[DateTime.toPartsUtc(DateTime.makeUnsafe(day)).weekDay]
    if (weekday === undefined || !hours.days.includes(weekday)) continue
    const start = instantOf(hours.timezone, day, from)
    const stop = instantOf(hours.timezone, day, end)
    if (start <= nowMillis && nowMillis < stop) return { inside: true, nextAllowedAt: nowMillis }
    if (start < stop && start > nowMillis && start < next) next = start
  }
  return { inside: false, nextAllowedAt: next }
}

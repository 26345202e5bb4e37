import { DateTime } from "effect"
import type { BudgetInterval } from "./SpendPolicy.ts"

const MILLIS_PER_DAY = 86_400_000

const utcMonthStartOffset = (epochMillis: number, monthOffset: number): number =>
  DateTime.toEpochMillis(
    DateTime.add(DateTime.startOf(DateTime.makeUnsafe(epochMillis), "month"), { months: monthOffset })
  )

const utcYearStartOffset = (epochMillis: number, yearOffset: number): number =>
  DateTime.toEpochMillis(
    DateTime.add(DateTime.startOf(DateTime.makeUnsafe(epochMillis), "year"), { years: yearOffset })
  )

/** Epoch millis of 00:00:00.000 UTC on the day containing `epochMillis`. */
export const utcDayStart = (epochMillis: number): number =>
  epochMillis - (((epochMillis % MILLIS_PER_DAY) + MILLIS_PER_DAY) % MILLIS_PER_DAY)

/** Epoch millis of 00:00:00.000 UTC on the day after the one containing `epochMillis`. */
export const nextUtcDayStart = (epochMillis: number): number => utcDayStart(epochMillis) + MILLIS_PER_DAY

/** Epoch millis of 00:00:00.000 UTC on the first day of the month containing `epochMillis`. */
export const utcMonthStart = (epochMillis: number): number => utcMonthStartOffset(epochMillis, 0)

/** Epoch millis of 00:00:00.000 UTC on the first day of the month after the one containing `epochMillis`. */
export const nextUtcMonthStart = (epochMillis: number): number => utcMonthStartOffset(epochMillis, 1)

/** Epoch millis of Monday 00:00:00.000 UTC of the ISO week containing `epochMillis`. */
export const utcWeekStart = (epochMillis: number): number => {
  const day = utcDayStart(epochMillis)
  // 1970-01-01 was a Thursday, 3 days after the Monday that starts its ISO week.
  const sinceMonday = (((Math.floor(day / MILLIS_PER_DAY) + 3) % 7) + 7) % 7
  return day - sinceMonday * MILLIS_PER_DAY
}

/** Epoch millis of 00:00:00.000 UTC on January 1st of the year containing `epochMillis`. */
export const utcYearStart = (epochMillis: number): number => utcYearStartOffset(epochMillis, 0)

/** Where the periods of every interval start: lifetime's never moves (the epoch). */
export const periodStart = (interval: BudgetInterval, epochMillis: number): number => {
  switch (interval) {
    case "day":
      return utcDayStart(epochMillis)
    case "week":
      return utcWeekStart(epochMillis)
    case "month":
      return utcMonthStart(epochMillis)
    case "year":
      return utcYearStart(epochMillis)
    case "lifetime":
      return 0
  }
}

/** Where the period of `interval` after the one containing `epochMillis` starts (lifetime: never, +Infinity). */
export const nextPeriodStart = (interval: BudgetInterval, epochMillis: number): number => {
  switch (interval) {
    case "day":
      return nextUtcDayStart(epochMillis)
    case "week":
      return utcWeekStart(epochMillis) + 7 * MILLIS_PER_DAY
    case "month":
      return nextUtcMonthStart(epochMillis)
    case "year":
      return utcYearStartOffset(epochMillis, 1)
    case "lifetime":
      return Number.POSITIVE_INFINITY
  }
}

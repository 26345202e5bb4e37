import { Schema } from "effect"

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const

const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0

const isRealDate = (text: string): boolean => {
  const [year = 0, month = 0, day = 0] = text.split("-").map(Number)
  if (month < 1 || month > 12 || day < 1) return false
  const days = month === 2 && isLeapYear(year) ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0)
  return day <= days
}

/** A calendar day in UTC, `YYYY-MM-DD` (a real date: no February 30th). */
export const CalendarDate = Schema.String.annotate({
  description: "A calendar day, `YYYY-MM-DD`.",
  examples: ["2026-03-01"]
}).check(
  Schema.isPattern(/^\d{4}-\d{2}-\d{2}$/u, { message: "expected a date YYYY-MM-DD" }),
  Schema.makeFilter(isRealDate, { message: "expected a real calendar date" })
)
export type CalendarDate = typeof CalendarDate.Type

import { Result, Schema } from "effect"
import { isoOfMillis, millisOfIso, TeamId, UserId } from "../../shared/model.ts"
import { TrackerInvalid } from "./TrackerErrors.ts"

/** Time spent on a project by a user; a running timer has no `stop` and no duration yet. */
export const TrackerEntry = Schema.Struct({
  id: Schema.String,
  teamId: TeamId,
  projectId: Schema.String,
  userId: UserId,
  start: Schema.String,
  stop: Schema.NullOr(Schema.String),
  durationSeconds: Schema.NullOr(Schema.Int),
  description: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  updatedAt: Schema.String
})
export type TrackerEntry = typeof TrackerEntry.Type

/** The longest entry: a year. */
export const MAX_ENTRY_SECONDS = 366 * 24 * 3600

/** An entry as clients see it; `duration` in seconds. */
export const TrackerEntryView = Schema.Struct({
  id: Schema.String,
  projectId: Schema.String,
  userId: Schema.String,
  start: Schema.String,
  stop: Schema.NullOr(Schema.String),
  duration: Schema.NullOr(Schema.Int),
  description: Schema.NullOr(Schema.String),
  createdAt: Schema.String
})
export type TrackerEntryView = typeof TrackerEntryView.Type

/** The client view of an entry. */
export const trackerEntryView = (e: TrackerEntry): TrackerEntryView => ({
  id: e.id,
  projectId: e.projectId,
  userId: e.userId,
  start: e.start,
  stop: e.stop,
  duration: e.durationSeconds,
  description: e.description,
  createdAt: e.createdAt
})

/** Whole seconds from `start` to `stop` (ISO 8601), rounded down. */
export const secondsBetween = (start: string, stop: string): number =>
  Math.floor((millisOfIso(stop) - millisOfIso(start)) / 1000)

/**
 * The finished times of an entry from its start and its stop or duration (either, or both when they agree): stop
 * before start, a negative or over-long duration, or neither given is refused naming the field (`prefix` + name).
 */
export const finishedTimes = (
  input: { readonly start: string; readonly stop?: string | undefined; readonly duration?: number | undefined },
  prefix = ""
): Result.Result<{ start: string; stop: string; durationSeconds: number }, TrackerInvalid> => {
  const invalid = (field: string, message: string) =>
    Result.fail(new TrackerInvalid({ field: prefix + field, message }))
  const startMs = millisOfIso(input.start)
  const start = isoOfMillis(startMs)
  if (input.duration !== undefined && (!Number.isInteger(input.duration) || input.duration < 0)) {
    return invalid("duration", "expected a whole number of seconds, not negative")
  }
  if (input.stop === undefined) {
    if (input.duration === undefined) return invalid("stop", "give the stop time or the duration")
    if (input.duration > MAX_ENTRY_SECONDS) return invalid("duration", "an entry lasts at most 366 days")
    return Result.succeed({
      start,
      stop: isoOfMillis(startMs + input.duration * 1000),
      durationSeconds: input.duration
    })
  }
  const stop = isoOfMillis(millisOfIso(input.stop))
  if (stop < start) return invalid("stop", "must not be before start")
  const durationSeconds = secondsBetween(start, stop)
  if (durationSeconds > MAX_ENTRY_SECONDS) return invalid("stop", "an entry lasts at most 366 days")
  if (input.duration !== undefined && input.duration !== durationSeconds) {
    return invalid("duration", `must equal the seconds from start to stop (${durationSeconds})`)
  }
  return Result.succeed({ start, stop, durationSeconds })
}

const DAY_MS = 24 * 3600 * 1000

/**
 * The twin's `dates`: one input per date, each starting on that UTC day at the start's UTC time of day and lasting as
 * long (a stop moves by the same time); without `dates`, the input itself.
 */
export const inputsOnDates = <I extends { readonly start: string; readonly stop?: string | undefined }>({
  dates,
  ...input
}: I & { readonly dates?: ReadonlyArray<string> | undefined }): ReadonlyArray<Omit<I, "dates">> => {
  if (dates === undefined) return [input]
  const startMs = millisOfIso(input.start)
  const timeOfDayMs = ((startMs % DAY_MS) + DAY_MS) % DAY_MS
  return dates.map((date) => {
    const shift = millisOfIso(`${date}T00:00:00Z`) + timeOfDayMs - startMs
    return {
      ...input,
      start: isoOfMillis(startMs + shift),
      ...(input.stop === undefined ? {} : { stop: isoOfMillis(millisOfIso(input.stop) + shift) })
    }
  })
}

/**
 * The start times of the UTC days `from` to `to` (inclusive) as a half-open range: `to` before `from`, or more than 366
 * days, is refused naming `to` (with `prefix`).
 */
export const entryRangeOf = (
  from: string,
  to: string,
  prefix = ""
): Result.Result<{ startFrom: string; startBefore: string }, TrackerInvalid> => {
  const fromMs = millisOfIso(`${from}T00:00:00Z`)
  const afterMs = millisOfIso(`${to}T00:00:00Z`) + DAY_MS
  if (afterMs <= fromMs)
    return Result.fail(new TrackerInvalid({ field: `${prefix}to`, message: "must not be before from" }))
  if (afterMs - fromMs > 366 * DAY_MS) {
    return Result.fail(new TrackerInvalid({ field: `${prefix}to`, message: "the range spans at most 366 days" }))
  }
  return Result.succeed({ startFrom: isoOfMillis(fromMs), startBefore: isoOfMillis(afterMs) })
}

/** The caller's timer as the twin's clients read it: whether it runs, its entry with its project, seconds so far. */
export const TimerStatusView = Schema.Struct({
  isRunning: Schema.Boolean,
  currentEntry: Schema.NullOr(
    Schema.Struct({
      ...TrackerEntryView.fields,
      trackerProject: Schema.Struct({ id: Schema.String, name: Schema.String })
    })
  ),
  elapsedTime: Schema.Int
})
export type TimerStatusView = typeof TimerStatusView.Type

/** The status of a running entry of project `projectName` at `now` (ISO 8601), or of no timer. */
export const timerStatusView = (
  running: { readonly entry: TrackerEntry; readonly projectName: string } | null,
  now: string
): TimerStatusView =>
  running === null
    ? { isRunning: false, currentEntry: null, elapsedTime: 0 }
    : {
        isRunning: true,
        currentEntry: {
          ...trackerEntryView(running.entry),
          trackerProject: { id: running.entry.projectId, name: running.projectName }
        },
        elapsedTime: Math.max(0, secondsBetween(running.entry.start, now))
      }

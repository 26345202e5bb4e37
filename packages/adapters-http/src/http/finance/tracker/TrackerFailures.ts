import type {
  TimerAlreadyRunning,
  TimerNotRunning,
  TrackerEntryNotFound,
  TrackerInvalid,
  TrackerProjectNotFound,
  TrackerReferenceNotFound
} from "@svc/domain"
import { Effect } from "effect"
import { type BadRequest, type Conflict, conflict, type NotFound } from "../../../api/shared/index.ts"
import { invalidField, missingResource } from "../../shared/index.ts"

type Refusal =
  | TrackerInvalid
  | TrackerReferenceNotFound
  | TrackerProjectNotFound
  | TrackerEntryNotFound
  | TimerAlreadyRunning
  | TimerNotRunning

const REFUSALS = new Set([
  "TrackerInvalid",
  "TrackerReferenceNotFound",
  "TrackerProjectNotFound",
  "TrackerEntryNotFound",
  "TimerAlreadyRunning",
  "TimerNotRunning"
])

const isRefusal = (u: unknown): u is Refusal =>
  typeof u === "object" && u !== null && REFUSALS.has((u as { readonly _tag?: string })._tag ?? "")

type Answer<R> = R extends TrackerInvalid
  ? BadRequest
  : R extends TimerAlreadyRunning | TimerNotRunning
    ? Conflict
    : NotFound

const answerOf = (e: Refusal, prefix: string): BadRequest | Conflict | NotFound => {
  switch (e._tag) {
    case "TrackerInvalid":
      return invalidField(`${prefix}${e.field}`, e.message)
    case "TrackerReferenceNotFound":
      return missingResource(e.kind, e.id, `${prefix}${e.field}`)
    case "TrackerProjectNotFound":
      return missingResource("tracker project", e.id, null)
    case "TrackerEntryNotFound":
      return missingResource("tracker entry", e.id, null)
    case "TimerAlreadyRunning":
      return conflict(
        "timer_running",
        e.entryId === null ? "a timer is already running" : `a timer is already running (entry ${e.entryId})`
      )
    case "TimerNotRunning":
      return conflict("timer_not_running", "no timer is running")
  }
}

/** The tracker's refusals as 400 naming the field (with `prefix`: `query.` for a list), 404 or 409. */
export const trackerRefusals =
  (prefix = "") =>
  <A, E, R>(self: Effect.Effect<A, E, R>) =>
    Effect.mapError(self, (e: unknown) => (isRefusal(e) ? answerOf(e, prefix) : e)) as Effect.Effect<
      A,
      Exclude<E, Refusal> | Answer<Extract<E, Refusal>>,
      R
    >

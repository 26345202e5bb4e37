import { CalendarDate, EXAMPLE_ID, MAX_ENTRY_SECONDS, TimerStatusView, TrackerEntryView } from "@svc/domain/model"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import {
  CommonErrors,
  Conflict,
  Forbidden,
  ListOf,
  ListQuery,
  NotFound,
  PlatformAuth,
  RequiredScope,
  UuidParam
} from "../../shared/index.ts"

/** An entry as answered; `duration` in seconds, null with `stop` while its timer runs. */
export const TrackerEntryResponse = TrackerEntryView

/** An ISO 8601 date-time with its offset, described for its field (a description after the custom filter is lost). */
const Instant = (description: string) =>
  Schema.String.annotate({ description, examples: ["2026-03-01T09:00:00Z"] }).check(
    Schema.isPattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?(?:Z|[+-]\d{2}:\d{2})$/u, {
      message: "expected an ISO 8601 date-time with its offset, e.g. 2026-01-31T09:00:00Z"
    }),
    Schema.makeFilter((text: string) => Schema.is(CalendarDate)(text.slice(0, 10)) && !Number.isNaN(Date.parse(text)), {
      message: "expected a real date-time"
    })
  )

const Start = Instant("When the work started: an ISO 8601 date-time with its offset.")
const Stop = Instant("When the work stopped: an ISO 8601 date-time with its offset, not before `start`.")

const ProjectId = UuidParam.annotate({
  description: "The team's tracker project the time counts against, a UUID.",
  examples: [EXAMPLE_ID]
})

const Duration = Schema.Int.check(
  Schema.isBetween(
    { minimum: 0, maximum: MAX_ENTRY_SECONDS },
    { message: `expected whole seconds, 0 to ${MAX_ENTRY_SECONDS}` }
  )
).annotate({
  description: `How long the work took in whole seconds, 0..${MAX_ENTRY_SECONDS}; with \`stop\`, both must agree.`,
  examples: [3600]
})

const Description = Schema.NullOr(Schema.String.check(Schema.isMaxLength(5000))).annotate({
  description: "What the time was spent on (at most 5000 characters); null for nothing.",
  examples: ["Sprint planning"]
})

export const CreateTrackerEntryRequest = Schema.Struct({
  projectId: ProjectId,
  start: Start,
  stop: Schema.optionalKey(Stop),
  duration: Schema.optionalKey(Duration),
  description: Schema.optionalKey(Description),
  /** The twin's: one entry on each of these UTC days, at the start's UTC time of day and as long. */
  dates: Schema.optionalKey(
    Schema.Array(CalendarDate).check(
      Schema.isMinLength(1, { message: "expected 1 to 100 dates" }),
      Schema.isMaxLength(100, { message: "expected 1 to 100 dates" })
    )
  )
})

const BulkEntries = Schema.Array(CreateTrackerEntryRequest).check(
  Schema.isMinLength(1, { message: "expected 1 to 100 entries" }),
  Schema.isMaxLength(100, { message: "expected 1 to 100 entries" })
)

/** The entries as an array, or as the twin's `{entries}`. */
export const BulkCreateTrackerEntriesRequest = Schema.Union([BulkEntries, Schema.Struct({ entries: BulkEntries })])

/** The created entries. */
const CreatedEntries = Schema.Struct({ data: Schema.Array(TrackerEntryResponse) })

export const UpdateTrackerEntryRequest = Schema.Struct({
  projectId: Schema.optionalKey(ProjectId),
  start: Schema.optionalKey(Start),
  stop: Schema.optionalKey(Stop),
  duration: Schema.optionalKey(Duration),
  description: Schema.optionalKey(Description)
})

export const StartTimerRequest = Schema.Struct({
  projectId: ProjectId,
  description: Schema.optionalKey(Description)
})

/** The filters of GET /tracker-entries: a date range of at most 366 days (UTC days of the start), a project. */
export const TrackerEntryListQuery = {
  ...ListQuery,
  from: CalendarDate,
  to: CalendarDate,
  projectId: Schema.optionalKey(UuidParam)
}

/** What DELETE answers: the id of the entry that is gone. */
export const DeletedTrackerEntry = Schema.Struct({
  id: Schema.String,
  object: Schema.Literal("tracker_entry"),
  deleted: Schema.Literal(true)
})

const errors = [...CommonErrors, Forbidden, NotFound] as const
const id = { id: UuidParam }

const TIMES =
  "An entry has its `start` and its `stop` or `duration` in seconds (both only when they agree); a stop before the " +
  "start or a negative duration is 400 naming the field, a project that is not the team's 404 naming `projectId`."

/** Time entries and the timer: session, OAuth or generic API key (tracker-entries.read / .write). */
export class TrackerEntriesApi extends HttpApiGroup.make("trackerEntries")
  .add(
    HttpApiEndpoint.get("list", "/tracker-entries", {
      query: TrackerEntryListQuery,
      success: ListOf(TrackerEntryResponse),
      error: errors
    })
      .annotate(RequiredScope, "tracker-entries.read")
      .annotate(OpenApi.Summary, "List tracker entries in a date range")
      .annotate(
        OpenApi.Description,
        "Entries starting on the UTC days `from` to `to` (inclusive, at most 366 days), optionally of one project, " +
          "latest start first."
      ),
    HttpApiEndpoint.post("create", "/tracker-entries", {
      payload: CreateTrackerEntryRequest,
      success: Schema.Union([TrackerEntryResponse, CreatedEntries]).pipe(HttpApiSchema.status(201)),
      error: errors
    })
      .annotate(RequiredScope, "tracker-entries.write")
      .annotate(OpenApi.Summary, "Create a tracker entry")
      .annotate(
        OpenApi.Description,
        `${TIMES} With the twin's \`dates\` (1 to 100 days), one entry on each UTC day at the start's UTC time of ` +
          "day and as long, all or none, answered as `{data}`; without it, the entry."
      ),
    HttpApiEndpoint.post("createMany", "/tracker-entries/bulk", {
      payload: BulkCreateTrackerEntriesRequest,
      success: CreatedEntries.pipe(HttpApiSchema.status(201)),
      error: errors
    })
      .annotate(RequiredScope, "tracker-entries.write")
      .annotate(OpenApi.Summary, "Create tracker entries in bulk")
      .annotate(
        OpenApi.Description,
        "1 to 100 entries, as an array or as the twin's `{entries}`, all or none (an entry with `dates` is one a " +
          `date): a refused item is named by its index (\`3.stop\`, \`entries.3.stop\`). ${TIMES}`
      ),
    HttpApiEndpoint.post("startTimer", "/tracker-entries/timer/start", {
      payload: StartTimerRequest,
      success: TrackerEntryResponse.pipe(HttpApiSchema.status(201)),
      error: [...errors, Conflict]
    })
      .annotate(RequiredScope, "tracker-entries.write")
      .annotate(OpenApi.Summary, "Start the timer")
      .annotate(
        OpenApi.Description,
        "Starts a running entry now; each user has at most one running timer per team (409 `timer_running`)."
      ),
    HttpApiEndpoint.post("stopTimer", "/tracker-entries/timer/stop", {
      success: TrackerEntryResponse,
      error: [...errors, Conflict]
    })
      .annotate(RequiredScope, "tracker-entries.write")
      .annotate(OpenApi.Summary, "Stop the timer")
      .annotate(
        OpenApi.Description,
        "Stops the caller's running timer now, with its duration in whole seconds (409 `timer_not_running`)."
      ),
    HttpApiEndpoint.get("currentTimer", "/tracker-entries/timer/current", {
      success: Schema.Struct({ data: Schema.NullOr(TrackerEntryResponse) }),
      error: errors
    })
      .annotate(RequiredScope, "tracker-entries.read")
      .annotate(OpenApi.Summary, "The running timer")
      .annotate(OpenApi.Description, "The caller's running entry, or `data: null`."),
    HttpApiEndpoint.get("timerStatus", "/tracker-entries/timer/status", {
      success: Schema.Struct({ data: TimerStatusView }),
      error: errors
    })
      .annotate(RequiredScope, "tracker-entries.read")
      .annotate(OpenApi.Summary, "The timer's status")
      .annotate(
        OpenApi.Description,
        "Whether the caller's timer runs (`isRunning`), its entry with its project's id and name (`currentEntry`, " +
          "else null) and the whole seconds since it started (`elapsedTime`, 0 when none runs)."
      ),
    HttpApiEndpoint.get("get", "/tracker-entries/:id", {
      params: id,
      success: TrackerEntryResponse,
      error: errors
    })
      .annotate(RequiredScope, "tracker-entries.read")
      .annotate(OpenApi.Summary, "Get a tracker entry")
      .annotate(
        OpenApi.Description,
        "One entry of the team, running or finished; 404 when the team has none by that id."
      ),
    HttpApiEndpoint.patch("update", "/tracker-entries/:id", {
      params: id,
      payload: UpdateTrackerEntryRequest,
      success: TrackerEntryResponse,
      error: errors
    })
      .annotate(RequiredScope, "tracker-entries.write")
      .annotate(OpenApi.Summary, "Update a tracker entry")
      .annotate(
        OpenApi.Description,
        `Each field given replaces the stored one; a new start, stop or duration recomputes the others. ${TIMES}`
      ),
    HttpApiEndpoint.delete("delete", "/tracker-entries/:id", {
      params: id,
      success: DeletedTrackerEntry,
      error: errors
    })
      .annotate(RequiredScope, "tracker-entries.write")
      .annotate(OpenApi.Summary, "Delete a tracker entry")
  )
  .middleware(PlatformAuth) {}

import { KnownCurrency, TrackerProjectStatus, TrackerProjectView } from "@svc/domain/model"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import {
  CommonErrors,
  Forbidden,
  ListOf,
  ListQuery,
  NotFound,
  PlatformAuth,
  RequiredScope,
  UuidParam
} from "../../shared/index.ts"

/** A project as answered (SPEC.md's TrackerProject, plus `billable` and `rate`). */
export const TrackerProjectResponse = TrackerProjectView

/** Trimmed text of 1 to `max` characters. */
const Text = (max: number) =>
  Schema.String.check(
    Schema.isTrimmed({ message: "must not start or end with spaces" }),
    Schema.isBetweenLength(1, max, { message: `expected 1 to ${max} characters` })
  )

const optional = <S extends Schema.Top>(schema: S) => Schema.optionalKey(Schema.NullOr(schema))

const ProjectFields = {
  description: optional(Schema.String.check(Schema.isMaxLength(5000))),
  status: Schema.optionalKey(TrackerProjectStatus),
  billable: Schema.optionalKey(Schema.Boolean),
  rate: optional(
    Schema.Number.check(
      Schema.isFinite({ message: "expected a decimal number" }),
      Schema.isGreaterThanOrEqualTo(0, { message: "must not be negative" })
    )
  ),
  currency: optional(KnownCurrency),
  estimate: optional(
    Schema.Int.check(
      Schema.isBetween({ minimum: 0, maximum: 1_000_000 }, { message: "expected whole hours, 0 to 1000000" })
    )
  ),
  customerId: optional(UuidParam),
  tagIds: Schema.optionalKey(
    Schema.Array(UuidParam).check(Schema.isMaxLength(50, { message: "expected at most 50 tags" }))
  )
}

export const CreateTrackerProjectRequest = Schema.Struct({ name: Text(200), ...ProjectFields })
export const UpdateTrackerProjectRequest = Schema.Struct({
  name: Schema.optionalKey(Text(200)),
  ...ProjectFields
})

/** What DELETE answers: the id of the project that is gone (its entries with it). */
export const DeletedTrackerProject = Schema.Struct({
  id: Schema.String,
  object: Schema.Literal("tracker_project"),
  deleted: Schema.Literal(true)
})

const errors = [...CommonErrors, Forbidden, NotFound] as const
const id = { id: UuidParam }

const RATE =
  "`rate` is per hour in major units of `currency` (no more decimals than the currency has); `totalAmount` is " +
  "rate × totalDuration / 3600, rounded half away from zero once in minor units, for billable projects (else 0). " +
  "`customerId` and `tagIds` name the team's customer and tags (404 naming the field otherwise)."

/** A team's tracker projects: session, OAuth or generic API key (tracker-projects.read / .write). */
export class TrackerProjectsApi extends HttpApiGroup.make("trackerProjects")
  .add(
    HttpApiEndpoint.get("list", "/tracker-projects", {
      query: ListQuery,
      success: ListOf(TrackerProjectResponse),
      error: errors
    })
      .annotate(RequiredScope, "tracker-projects.read")
      .annotate(OpenApi.Summary, "List tracker projects")
      .annotate(OpenApi.Description, "The team's projects, newest first, with their totals."),
    HttpApiEndpoint.post("create", "/tracker-projects", {
      payload: CreateTrackerProjectRequest,
      success: TrackerProjectResponse.pipe(HttpApiSchema.status(201)),
      error: errors
    })
      .annotate(RequiredScope, "tracker-projects.write")
      .annotate(OpenApi.Summary, "Create a tracker project")
      .annotate(OpenApi.Description, RATE),
    HttpApiEndpoint.get("get", "/tracker-projects/:id", { params: id, success: TrackerProjectResponse, error: errors })
      .annotate(RequiredScope, "tracker-projects.read")
      .annotate(OpenApi.Summary, "Get a tracker project"),
    HttpApiEndpoint.patch("update", "/tracker-projects/:id", {
      params: id,
      payload: UpdateTrackerProjectRequest,
      success: TrackerProjectResponse,
      error: errors
    })
      .annotate(RequiredScope, "tracker-projects.write")
      .annotate(OpenApi.Summary, "Update a tracker project")
      .annotate(
        OpenApi.Description,
        `Each field given replaces the stored one; null clears an optional field; \`tagIds\` replaces the tags. ${RATE}`
      ),
    HttpApiEndpoint.delete("delete", "/tracker-projects/:id", {
      params: id,
      success: DeletedTrackerProject,
      error: errors
    })
      .annotate(RequiredScope, "tracker-projects.write")
      .annotate(OpenApi.Summary, "Delete a tracker project and its entries")
  )
  .middleware(PlatformAuth) {}

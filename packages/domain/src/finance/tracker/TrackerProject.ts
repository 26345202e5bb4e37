import { Schema, Struct } from "effect"
import { TeamId } from "../../shared/model.ts"
import { divideRounded, renderMinor } from "../money/model.ts"

/** A tracker project's state (SPEC.md). */
export const TrackerProjectStatus = Schema.Literals(["in_progress", "completed"])
export type TrackerProjectStatus = typeof TrackerProjectStatus.Type

/** A project time is tracked against; `rateMinor` is the hourly rate in minor units of `currency`. */
export const TrackerProject = Schema.Struct({
  id: Schema.String,
  teamId: TeamId,
  name: Schema.String,
  description: Schema.NullOr(Schema.String),
  status: TrackerProjectStatus,
  billable: Schema.Boolean,
  rateMinor: Schema.NullOr(Schema.Int),
  currency: Schema.NullOr(Schema.String),
  estimate: Schema.NullOr(Schema.Int),
  customerId: Schema.NullOr(Schema.String),
  tagIds: Schema.Array(Schema.String),
  createdAt: Schema.String,
  updatedAt: Schema.String
})
export type TrackerProject = typeof TrackerProject.Type

/** The customer a project names (SPEC.md's TrackerProject.customer). */
export const TrackerCustomer = Schema.Struct({ id: Schema.String, name: Schema.String, website: Schema.String })

/** A tag as a project shows it. */
export const TrackerTag = Schema.Struct({ id: Schema.String, name: Schema.String })

/** A project with what it is shown with: its customer, tags and the seconds of its finished entries. */
export const TrackerProjectDetails = Schema.Struct({
  ...TrackerProject.fields,
  customer: Schema.NullOr(TrackerCustomer),
  tags: Schema.Array(TrackerTag),
  totalDurationSeconds: Schema.Int
})
export type TrackerProjectDetails = typeof TrackerProjectDetails.Type

/**
 * What `seconds` of work earn at `rateMinor` per hour, in minor units, rounded half away from zero once (on the total,
 * never per entry); nothing for a project that is not billable or has no rate.
 */
export const trackedAmountMinor = (project: Pick<TrackerProject, "billable" | "rateMinor">, seconds: number): number =>
  !project.billable || project.rateMinor === null
    ? 0
    : Number(divideRounded(BigInt(project.rateMinor) * BigInt(seconds), 3600n))

/** A project as clients see it (SPEC.md's TrackerProject plus `billable` and `rate`); amounts in major units. */
export const TrackerProjectView = Schema.Struct({
  ...Struct.pick(TrackerProject.fields, ["id", "name", "description", "status", "billable"]),
  rate: Schema.NullOr(Schema.Number),
  estimate: TrackerProject.fields.estimate,
  ...Struct.pick(TrackerProject.fields, ["currency", "createdAt"]),
  totalDuration: Schema.NullOr(Schema.Int),
  totalAmount: Schema.Number,
  customer: Schema.NullOr(TrackerCustomer),
  tags: Schema.Array(TrackerTag),
  users: Schema.NullOr(
    Schema.Array(Schema.Struct({ id: Schema.String, fullName: Schema.String, avatarUrl: Schema.String }))
  )
})
export type TrackerProjectView = typeof TrackerProjectView.Type

/** The client view of a project. */
export const trackerProjectView = (p: TrackerProjectDetails): TrackerProjectView => ({
  id: p.id,
  name: p.name,
  description: p.description,
  status: p.status,
  billable: p.billable,
  rate: p.rateMinor === null || p.currency === null ? null : renderMinor(p.rateMinor, p.currency),
  estimate: p.estimate,
  currency: p.currency,
  createdAt: p.createdAt,
  totalDuration: p.totalDurationSeconds,
  totalAmount: p.currency === null ? 0 : renderMinor(trackedAmountMinor(p, p.totalDurationSeconds), p.currency),
  customer: p.customer,
  tags: p.tags,
  users: null
})

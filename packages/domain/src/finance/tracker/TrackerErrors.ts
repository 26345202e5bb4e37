import { Schema } from "effect"

/** A tracker request could not be taken as it is: `field` names the input (`stop`, `3.duration`, `currency`). */
export class TrackerInvalid extends Schema.TaggedError<TrackerInvalid>()("TrackerInvalid", {
  field: Schema.String,
  message: Schema.String
}) {}

/** The team has no tracker project with that id (another team's is not found either). */
export class TrackerProjectNotFound extends Schema.TaggedError<TrackerProjectNotFound>()("TrackerProjectNotFound", {
  id: Schema.String
}) {}

/** The team has no tracker entry with that id. */
export class TrackerEntryNotFound extends Schema.TaggedError<TrackerEntryNotFound>()("TrackerEntryNotFound", {
  id: Schema.String
}) {}

/** A project, customer or tag a request names is not the team's (unknown or another team's). */
export class TrackerReferenceNotFound extends Schema.TaggedError<TrackerReferenceNotFound>()(
  "TrackerReferenceNotFound",
  { kind: Schema.Literals(["project", "customer", "tag"]), id: Schema.String, field: Schema.String }
) {}

/** The user already has a running timer (one per user). */
export class TimerAlreadyRunning extends Schema.TaggedError<TimerAlreadyRunning>()("TimerAlreadyRunning", {
  entryId: Schema.NullOr(Schema.String)
}) {}

/** The user has no running timer to stop. */
export class TimerNotRunning extends Schema.TaggedError<TimerNotRunning>()("TimerNotRunning", {}) {}

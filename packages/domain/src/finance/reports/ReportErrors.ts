import { Schema } from "effect"

/** A report query that cannot be answered (`from` after `to`, a range too long, an unknown currency). */
export class InvalidReportQuery extends Schema.TaggedError<InvalidReportQuery>()("InvalidReportQuery", {
  field: Schema.String,
  message: Schema.String
}) {}

import { Schema } from "effect"

/** A search request could not be taken as it is: `field` names the input (`q`). */
export class SearchInvalid extends Schema.TaggedError<SearchInvalid>()("SearchInvalid", {
  field: Schema.String,
  message: Schema.String
}) {}

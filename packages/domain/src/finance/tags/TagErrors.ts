import { Schema } from "effect"

/** The team has no tag with that id (another team's is not found either). */
export class TagNotFound extends Schema.TaggedError<TagNotFound>()("TagNotFound", {
  tagId: Schema.String,
  field: Schema.NullOr(Schema.String)
}) {}

/** The team already has a tag with that name. */
export class TagNameTaken extends Schema.TaggedError<TagNameTaken>()("TagNameTaken", { name: Schema.String }) {}

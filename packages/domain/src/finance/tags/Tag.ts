import { Schema } from "effect"
import { TeamId } from "../../shared/model.ts"

const Uuid = Schema.String.check(Schema.isUUID())

/** A tag id. */
export const TagId = Uuid.pipe(Schema.brand("TagId"))
export type TagId = typeof TagId.Type

/** A tag name: trimmed, 1 to 100 characters. */
export const TagName = Schema.Trim.check(
  Schema.isBetweenLength(1, 100, { message: "expected a name of 1 to 100 characters" })
)

/** A team's label for transactions (and tracker projects); names are unique within the team. */
export const Tag = Schema.Struct({
  id: TagId,
  teamId: TeamId,
  name: Schema.String,
  createdAt: Schema.String
})
export type Tag = typeof Tag.Type

/** A tag as the API shows it (SPEC.md's Tag). */
export const TagView = Schema.Struct({ id: Schema.String, name: Schema.String })
export type TagView = typeof TagView.Type

/** The client view of a tag. */
export const tagView = (tag: Tag): TagView => ({ id: tag.id, name: tag.name })

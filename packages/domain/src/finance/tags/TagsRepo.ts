import { Context, type Effect, type Option } from "effect"
import type { PersistenceUnavailable, TeamId } from "../../shared/model.ts"
import type { Tag, TagId } from "./Tag.ts"

/** Storage of a team's tags. Every read and write is scoped to the team: another team's tag is not found. */
export class TagsRepo extends Context.Service<
  TagsRepo,
  {
    /** Inserts the tag; false (nothing written) when the team already has a tag of that name. */
    readonly insert: (tag: Tag) => Effect.Effect<boolean, PersistenceUnavailable>
    /** The team's tags by name. */
    readonly list: (teamId: TeamId) => Effect.Effect<ReadonlyArray<Tag>, PersistenceUnavailable>
    readonly find: (teamId: TeamId, id: TagId) => Effect.Effect<Option.Option<Tag>, PersistenceUnavailable>
    /** The ids among `ids` that are the team's tags. */
    readonly existing: (
      teamId: TeamId,
      ids: ReadonlyArray<TagId>
    ) => Effect.Effect<ReadonlyArray<TagId>, PersistenceUnavailable>
    /** Renames the tag: `not_found`, `name_taken`, or the renamed tag. */
    readonly rename: (
      teamId: TeamId,
      id: TagId,
      name: string
    ) => Effect.Effect<Tag | "not_found" | "name_taken", PersistenceUnavailable>
    /** Deletes the tag (and its links to transactions); false when the team has no such tag. */
    readonly remove: (teamId: TeamId, id: TagId) => Effect.Effect<boolean, PersistenceUnavailable>
  }
>()("@svc/domain/TagsRepo") {}

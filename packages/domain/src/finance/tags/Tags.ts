import { Context, Effect, Layer, Option } from "effect"
import { newId, nowIso, type PersistenceUnavailable, type TeamId } from "../../shared/index.ts"
import { type Tag, TagId } from "./Tag.ts"
import { TagNameTaken, TagNotFound } from "./TagErrors.ts"
import { TagsRepo } from "./TagsRepo.ts"

type Failure = PersistenceUnavailable

/** A team's tags: names unique within the team. */
export class Tags extends Context.Service<
  Tags,
  {
    readonly list: (teamId: TeamId) => Effect.Effect<ReadonlyArray<Tag>, Failure>
    readonly get: (teamId: TeamId, id: TagId) => Effect.Effect<Tag, TagNotFound | Failure>
    readonly create: (teamId: TeamId, name: string) => Effect.Effect<Tag, TagNameTaken | Failure>
    readonly rename: (
      teamId: TeamId,
      id: TagId,
      name: string
    ) => Effect.Effect<Tag, TagNotFound | TagNameTaken | Failure>
    /** Deletes the tag and takes it off every transaction. */
    readonly remove: (teamId: TeamId, id: TagId) => Effect.Effect<Tag, TagNotFound | Failure>
    /** Every id must be a tag of the team; the first that is not fails, naming `field`. */
    readonly requireAll: (
      teamId: TeamId,
      ids: ReadonlyArray<TagId>,
      field: string
    ) => Effect.Effect<void, TagNotFound | Failure>
  }
>()("@svc/domain/Tags") {
  static readonly make = Effect.gen(function* () {
    const repo = yield* TagsRepo

    const get = Effect.fn("Tags.get")(function* (teamId: TeamId, id: TagId) {
      const found = yield* repo.find(teamId, id)
      if (Option.isNone(found)) return yield* new TagNotFound({ tagId: id, field: null })
      return found.value
    })

    const create = Effect.fn("Tags.create")(function* (teamId: TeamId, name: string) {
      const tag: Tag = { id: yield* newId(TagId), teamId, name, createdAt: yield* nowIso }
      if (!(yield* repo.insert(tag))) return yield* new TagNameTaken({ name })
      return tag
    })

    const rename = Effect.fn("Tags.rename")(function* (teamId: TeamId, id: TagId, name: string) {
      const outcome = yield* repo.rename(teamId, id, name)
      if (outcome === "not_found") return yield* new TagNotFound({ tagId: id, field: null })
      if (outcome === "name_taken") return yield* new TagNameTaken({ name })
      return outcome
    })

    const remove = Effect.fn("Tags.remove")(function* (teamId: TeamId, id: TagId) {
      const found = yield* get(teamId, id)
      if (!(yield* repo.remove(teamId, id))) return yield* new TagNotFound({ tagId: id, field: null })
      return found
    })

    const requireAll = Effect.fn("Tags.requireAll")(function* (
      teamId: TeamId,
      ids: ReadonlyArray<TagId>,
      field: string
    ) {
      if (ids.length === 0) return
      const existing = new Set<string>(yield* repo.existing(teamId, ids))
      const missing = ids.find((id) => !existing.has(id))
      if (missing !== undefined) return yield* new TagNotFound({ tagId: missing, field })
    })

    return Tags.of({ list: repo.list, get, create, rename, remove, requireAll })
  })
  static readonly layer = Layer.effect(Tags, Tags.make)
}

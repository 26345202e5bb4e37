import { type Tag, TagsRepo } from "@svc/domain"
import { Effect, Layer, Option, Ref } from "effect"
import { MemoryStore } from "../../shared/index.ts"

const byName = (a: Tag, b: Tag) => (a.name !== b.name ? (a.name < b.name ? -1 : 1) : a.id < b.id ? -1 : 1)

/** TagsRepo over the in-memory store. */
export const TagsRepoMemory = Layer.effect(
  TagsRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const rows = yield* store.table<ReadonlyMap<string, Tag>>(new Map())
    const nameTaken = (all: ReadonlyMap<string, Tag>, teamId: string, name: string, except?: string) =>
      [...all.values()].some((t) => t.teamId === teamId && t.name === name && t.id !== except)
    const find = (teamId: string, id: string) =>
      Ref.get(rows).pipe(
        Effect.map((all) => Option.filter(Option.fromNullishOr(all.get(id)), (t) => t.teamId === teamId))
      )
    return TagsRepo.of({
      insert: (tag) =>
        store.atomically(
          Effect.gen(function* () {
            const all = yield* Ref.get(rows)
            if (nameTaken(all, tag.teamId, tag.name)) return false
            yield* Ref.set(rows, new Map(all).set(tag.id, tag))
            return true
          })
        ),
      list: (teamId) =>
        Ref.get(rows).pipe(Effect.map((all) => [...all.values()].filter((t) => t.teamId === teamId).toSorted(byName))),
      find,
      existing: (teamId, ids) =>
        Ref.get(rows).pipe(Effect.map((all) => [...new Set(ids)].filter((id) => all.get(id)?.teamId === teamId))),
      rename: (teamId, id, name) =>
        store.atomically(
          Effect.gen(function* () {
            const all = yield* Ref.get(rows)
            const found = all.get(id)
            if (found === undefined || found.teamId !== teamId) return "not_found" as const
            if (nameTaken(all, teamId, name, id)) return "name_taken" as const
            const renamed = { ...found, name }
            yield* Ref.set(rows, new Map(all).set(id, renamed))
            return renamed
          })
        ),
      remove: (teamId, id) =>
        store.atomically(
          Effect.gen(function* () {
            const all = yield* Ref.get(rows)
            if (all.get(id)?.teamId !== teamId) return false
            const next = new Map(all)
            next.delete(id)
            yield* Ref.set(rows, next)
            return true
          })
        )
    })
  })
)

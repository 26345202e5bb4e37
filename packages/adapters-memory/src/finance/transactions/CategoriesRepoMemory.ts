import { CategoriesRepo, type Category, type CategoryChanges } from "@svc/domain"
import { Effect, Layer, Option, Ref } from "effect"
import { MemoryStore } from "../../shared/index.ts"

const applyChanges = (category: Category, changes: CategoryChanges): Category => ({
  ...category,
  ...(changes.name === undefined ? {} : { name: changes.name }),
  ...(changes.slug === undefined ? {} : { slug: changes.slug }),
  ...(changes.color === undefined ? {} : { color: changes.color }),
  ...(changes.description === undefined ? {} : { description: changes.description }),
  ...(changes.taxRate === undefined ? {} : { taxRate: changes.taxRate }),
  ...(changes.taxType === undefined ? {} : { taxType: changes.taxType }),
  ...(changes.parentId === undefined ? {} : { parentId: changes.parentId }),
  ...(changes.type === undefined ? {} : { type: changes.type }),
  ...(changes.excluded === undefined ? {} : { excluded: changes.excluded }),
  updatedAt: changes.updatedAt
})

const byListOrder = (a: Category, b: Category) =>
  a.system !== b.system ? (a.system ? -1 : 1) : a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : 1

/** CategoriesRepo over the in-memory store. */
export const CategoriesRepoMemory = Layer.effect(
  CategoriesRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const rows = yield* store.table<ReadonlyMap<string, Category>>(new Map())
    const ofTeam = (teamId: string) =>
      Ref.get(rows).pipe(Effect.map((all) => [...all.values()].filter((c) => c.teamId === teamId)))
    return CategoriesRepo.of({
      insert: (categories) =>
        store.atomically(
          Effect.gen(function* () {
            const all = yield* Ref.get(rows)
            const taken = new Set([...all.values()].map((c) => `${c.teamId}\u0000${c.slug}`))
            if (categories.some((c) => taken.has(`${c.teamId}\u0000${c.slug}`))) return "slug_taken" as const
            const next = new Map(all)
            for (const category of categories) next.set(category.id, category)
            yield* Ref.set(rows, next)
            return "inserted" as const
          })
        ),
      list: (teamId) => ofTeam(teamId).pipe(Effect.map((all) => all.toSorted(byListOrder))),
      find: (teamId, id) =>
        Ref.get(rows).pipe(
          Effect.map((all) => Option.filter(Option.fromNullishOr(all.get(id)), (c) => c.teamId === teamId))
        ),
      findMany: (teamId, ids) =>
        Ref.get(rows).pipe(
          Effect.map((all) =>
            [...new Set(ids)].flatMap((id) => {
              const found = all.get(id)
              return found !== undefined && found.teamId === teamId ? [found] : []
            })
          )
        ),
      update: (teamId, id, changes) =>
        store.atomically(
          Effect.gen(function* () {
            const all = yield* Ref.get(rows)
            const found = all.get(id)
            if (found === undefined || found.teamId !== teamId) return "not_found" as const
            if (
              changes.slug !== undefined &&
              [...all.values()].some((c) => c.teamId === teamId && c.slug === changes.slug && c.id !== id)
            ) {
              return "slug_taken" as const
            }
            const updated = applyChanges(found, changes)
            yield* Ref.set(rows, new Map(all).set(id, updated))
            return updated
          })
        ),
      remove: (teamId, id) =>
        store.atomically(
          Effect.gen(function* () {
            const all = yield* Ref.get(rows)
            const found = all.get(id)
            if (found === undefined || found.teamId !== teamId) return false
            if (found.system) return "system" as const
            const next = new Map(all)
            next.delete(id)
            for (const category of next.values()) {
              if (category.parentId === id) next.set(category.id, { ...category, parentId: null })
            }
            yield* Ref.set(rows, next)
            return true
          })
        )
    })
  })
)

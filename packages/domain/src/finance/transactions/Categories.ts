import { Context, Effect, Layer, Option } from "effect"
import { newId, nowIso, type PersistenceUnavailable, type TeamId } from "../../shared/index.ts"
import { CategoriesRepo, type CategoryChanges } from "./CategoriesRepo.ts"
import { type Category, CategoryId, type CategoryType } from "./Category.ts"
import { CategoryNotFound, CategoryParentInvalid, CategorySlugTaken, SystemCategoryLocked } from "./CategoryErrors.ts"

/** Input to create a team-defined category; absent fields follow the parent, else the defaults. */
export interface CreateCategory {
  readonly name: string
  readonly slug?: string | undefined
  readonly color?: string | undefined
  readonly description?: string | null | undefined
  readonly taxRate?: number | null | undefined
  readonly taxType?: string | null | undefined
  readonly parentId?: CategoryId | null | undefined
  readonly type?: CategoryType | undefined
  readonly excluded?: boolean | undefined
}

/** Changes to a category (absent: unchanged). */
export type UpdateCategory = Omit<CategoryChanges, "updatedAt">

/** The color of a category created without one and without a parent. */
export const DEFAULT_CATEGORY_COLOR = "#606060"

/** A slug from a name: ASCII letters and digits, lower case, joined by hyphens; `category` when nothing is left. */
export const categorySlugOf = (name: string): string => {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/gu, "-")
    .replace(/^-+|-+$/gu, "")
    .slice(0, 64)
    .replace(/-+$/u, "")
  return slug === "" ? "category" : slug
}

type Failure = PersistenceUnavailable

/** A team's transaction categories: the standard taxonomy (fixed slugs, never deleted) and its own, one level deep. */
export class Categories extends Context.Service<
  Categories,
  {
    readonly list: (teamId: TeamId) => Effect.Effect<ReadonlyArray<Category>, Failure>
    readonly get: (teamId: TeamId, id: CategoryId) => Effect.Effect<Category, CategoryNotFound | Failure>
    /** Creates a team-defined category (slug from the name unless given; 409 when taken). */
    readonly create: (
      teamId: TeamId,
      input: CreateCategory
    ) => Effect.Effect<Category, CategoryNotFound | CategorySlugTaken | CategoryParentInvalid | Failure>
    /** Changes a category; a system category keeps its slug, type and parent. */
    readonly update: (
      teamId: TeamId,
      id: CategoryId,
      changes: UpdateCategory
    ) => Effect.Effect<
      Category,
      CategoryNotFound | CategorySlugTaken | CategoryParentInvalid | SystemCategoryLocked | Failure
    >
    /** Deletes a team-defined category: its children become top-level, its transactions uncategorised. */
    readonly remove: (
      teamId: TeamId,
      id: CategoryId
    ) => Effect.Effect<Category, CategoryNotFound | SystemCategoryLocked | Failure>
  }
>()("@svc/domain/Categories") {
  static readonly make = Effect.gen(function* () {
    const repo = yield* CategoriesRepo

    const get = Effect.fn("Categories.get")(function* (teamId: TeamId, id: CategoryId) {
      const found = yield* repo.find(teamId, id)
      if (Option.isNone(found)) return yield* new CategoryNotFound({ categoryId: id, field: null })
      return found.value
    })

    /** A parent must be the team's, top-level, and not the category itself. */
    const parentFor = Effect.fn("Categories.parent")(function* (teamId: TeamId, parentId: CategoryId, self?: Category) {
      const found = yield* repo.find(teamId, parentId)
      if (Option.isNone(found)) return yield* new CategoryNotFound({ categoryId: parentId, field: "parentId" })
      const parent = found.value
      if (self !== undefined && parent.id === self.id) {
        return yield* new CategoryParentInvalid({ parentId, message: "a category cannot be its own parent" })
      }
      if (parent.parentId !== null) {
        return yield* new CategoryParentInvalid({
          parentId,
          message: "the parent is itself a subcategory; categories nest one level deep"
        })
      }
      if (self !== undefined && (yield* repo.list(teamId)).some((c) => c.parentId === self.id)) {
        return yield* new CategoryParentInvalid({
          parentId,
          message: "the category has subcategories, so it cannot become one"
        })
      }
      return parent
    })

    const create = Effect.fn("Categories.create")(function* (teamId: TeamId, input: CreateCategory) {
      const parent =
        input.parentId === undefined || input.parentId === null ? null : yield* parentFor(teamId, input.parentId)
      const at = yield* nowIso
      const category: Category = {
        id: yield* newId(CategoryId),
        teamId,
        slug: input.slug ?? categorySlugOf(input.name),
        name: input.name,
        color: input.color ?? parent?.color ?? DEFAULT_CATEGORY_COLOR,
        description: input.description ?? null,
        taxRate: input.taxRate ?? null,
        taxType: input.taxType ?? null,
        parentId: parent?.id ?? null,
        type: input.type ?? parent?.type ?? "expense",
        excluded: input.excluded ?? parent?.excluded ?? false,
        system: false,
        createdAt: at,
        updatedAt: at
      }
      if ((yield* repo.insert([category])) === "slug_taken") {
        return yield* new CategorySlugTaken({ slug: category.slug })
      }
      return category
    })

    const update = Effect.fn("Categories.update")(function* (teamId: TeamId, id: CategoryId, changes: UpdateCategory) {
      const current = yield* get(teamId, id)
      if (current.system) {
        const locked =
          (changes.slug !== undefined && changes.slug !== current.slug) ||
          (changes.type !== undefined && changes.type !== current.type) ||
          (changes.parentId !== undefined && changes.parentId !== current.parentId)
        if (locked) {
          return yield* new SystemCategoryLocked({
            categoryId: id,
            message: "a category of the standard taxonomy keeps its slug, type and parent"
          })
        }
      }
      if (changes.parentId !== undefined && changes.parentId !== null && changes.parentId !== current.parentId) {
        yield* parentFor(teamId, changes.parentId, current)
      }
      const updated = yield* repo.update(teamId, id, { ...changes, updatedAt: yield* nowIso })
      if (updated === "not_found") return yield* new CategoryNotFound({ categoryId: id, field: null })
      if (updated === "slug_taken") return yield* new CategorySlugTaken({ slug: changes.slug ?? current.slug })
      return updated
    })

    const remove = Effect.fn("Categories.remove")(function* (teamId: TeamId, id: CategoryId) {
      const current = yield* get(teamId, id)
      const outcome = yield* repo.remove(teamId, id)
      if (outcome === "system") {
        return yield* new SystemCategoryLocked({
          categoryId: id,
          message: "a category of the standard taxonomy cannot be deleted"
        })
      }
      if (!outcome) return yield* new CategoryNotFound({ categoryId: id, field: null })
      return current
    })

    return Categories.of({ list: repo.list, get, create, update, remove })
  })
  static readonly layer = Layer.effect(Categories, Categories.make)
}

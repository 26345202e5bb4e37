import { Context, Effect, type Option } from "effect"
import { newId, nowIso, type PersistenceUnavailable, type TeamId } from "../../shared/index.ts"
import { type Category, CategoryId, type CategoryType } from "./Category.ts"
import { STANDARD_CATEGORIES, standardCategoriesOf } from "./StandardCategories.ts"

/** The fields of a team-defined category an update may change (absent: unchanged). */
export interface CategoryChanges {
  readonly name?: string | undefined
  readonly slug?: string | undefined
  readonly color?: string | undefined
  readonly description?: string | null | undefined
  readonly taxRate?: number | null | undefined
  readonly taxType?: string | null | undefined
  readonly parentId?: CategoryId | null | undefined
  readonly type?: CategoryType | undefined
  readonly excluded?: boolean | undefined
  readonly updatedAt: string
}

/** Storage of a team's transaction categories. Scoped to the team: another team's category is not found. */
export class CategoriesRepo extends Context.Service<
  CategoriesRepo,
  {
    /**
     * Inserts categories of one team (parents before children); `slug_taken` when the team already has one of their
     * slugs, and then nothing is written (a batch racing a concurrent insert of one of its slugs may write the others;
     * batches are only the seed of a new team).
     */
    readonly insert: (
      categories: ReadonlyArray<Category>
    ) => Effect.Effect<"inserted" | "slug_taken", PersistenceUnavailable>
    /** The team's categories: system ones first, then by name. */
    readonly list: (teamId: TeamId) => Effect.Effect<ReadonlyArray<Category>, PersistenceUnavailable>
    readonly find: (teamId: TeamId, id: CategoryId) => Effect.Effect<Option.Option<Category>, PersistenceUnavailable>
    /** The team's categories among `ids`. */
    readonly findMany: (
      teamId: TeamId,
      ids: ReadonlyArray<CategoryId>
    ) => Effect.Effect<ReadonlyArray<Category>, PersistenceUnavailable>
    /** Applies the changes: the updated category, `not_found`, or `slug_taken` (nothing written). */
    readonly update: (
      teamId: TeamId,
      id: CategoryId,
      changes: CategoryChanges
    ) => Effect.Effect<Category | "not_found" | "slug_taken", PersistenceUnavailable>
    /**
     * Deletes a team-defined category: its children lose their parent and its transactions their category. `system`
     * (nothing deleted) for a category of the standard taxonomy; false when the team has no such category.
     */
    readonly remove: (teamId: TeamId, id: CategoryId) => Effect.Effect<boolean | "system", PersistenceUnavailable>
  }
>()("@svc/domain/CategoriesRepo") {}

/** Gives a new team the standard taxonomy (inside the caller's transaction). */
export const seedStandardCategories = Effect.fn("Categories.seedStandard")(function* (
  repo: CategoriesRepo["Service"],
  teamId: TeamId
) {
  const at = yield* nowIso
  const ids = yield* Effect.forEach(STANDARD_CATEGORIES, () => newId(CategoryId))
  const outcome = yield* repo.insert(standardCategoriesOf(teamId, ids, at))
  // the team is created in the caller's transaction, so none of its slugs can be taken yet
  if (outcome === "slug_taken") return yield* Effect.die("a new team already had standard categories")
})

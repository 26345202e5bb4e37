import { Schema } from "effect"

/** The team has no category with that id (another team's is not found either). */
export class CategoryNotFound extends Schema.TaggedError<CategoryNotFound>()("CategoryNotFound", {
  categoryId: Schema.String,
  field: Schema.NullOr(Schema.String)
}) {}

/** The team already has a category with that slug. */
export class CategorySlugTaken extends Schema.TaggedError<CategorySlugTaken>()("CategorySlugTaken", {
  slug: Schema.String
}) {}

/** A change the standard taxonomy does not allow: deleting a system category, or changing its slug, type or parent. */
export class SystemCategoryLocked extends Schema.TaggedError<SystemCategoryLocked>()("SystemCategoryLocked", {
  categoryId: Schema.String,
  message: Schema.String
}) {}

/** The parent would make more than one level, or a category its own parent. */
export class CategoryParentInvalid extends Schema.TaggedError<CategoryParentInvalid>()("CategoryParentInvalid", {
  parentId: Schema.String,
  message: Schema.String
}) {}

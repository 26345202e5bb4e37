import { Schema } from "effect"
import { TeamId } from "../../shared/model.ts"
import { decimalOf } from "../money/model.ts"

const Uuid = Schema.String.check(Schema.isUUID())

/** A transaction category id. */
export const CategoryId = Uuid.pipe(Schema.brand("CategoryId"))
export type CategoryId = typeof CategoryId.Type

/** A category slug: lower-case words joined by hyphens, unique within the team. */
export const TransactionCategorySlug = Schema.String.check(
  Schema.isPattern(/^[a-z0-9]+(?:-[a-z0-9]+)*$/u, { message: "expected lower-case words joined by hyphens" }),
  Schema.isMaxLength(64)
)

/** A color as `#RRGGBB`. */
export const HexColor = Schema.String.check(
  Schema.isPattern(/^#[0-9A-Fa-f]{6}$/u, { message: "expected a hex color #RRGGBB" })
)

/** A tax rate in percent, 0 to 100, with at most 4 decimals. */
export const TaxRate = Schema.Number.check(
  Schema.isBetween({ minimum: 0, maximum: 100 }, { message: "expected a tax rate in percent between 0 and 100" }),
  Schema.makeFilter((rate: number) => (decimalOf(rate)?.scale ?? 5) <= 4, {
    message: "expected a tax rate with at most 4 decimals"
  })
)

/**
 * What a category's transactions are in the reports: revenue, contra-revenue (refunds, chargebacks: revenue taken
 * back), cost of goods sold, other (operating) expenses, or transfers (between own accounts, never income nor spend).
 */
export const CategoryType = Schema.Literals(["revenue", "contra_revenue", "cost_of_goods_sold", "expense", "transfer"])
export type CategoryType = typeof CategoryType.Type

/**
 * A transaction category of a team: a system one of the standard taxonomy (seeded with the team, never deleted) or
 * one the team defined; at most one level of parent. Excluded categories never count in reports.
 */
export const Category = Schema.Struct({
  id: CategoryId,
  teamId: TeamId,
  slug: TransactionCategorySlug,
  name: Schema.String,
  color: HexColor,
  description: Schema.NullOr(Schema.String),
  taxRate: Schema.NullOr(TaxRate),
  taxType: Schema.NullOr(Schema.String),
  parentId: Schema.NullOr(CategoryId),
  type: CategoryType,
  excluded: Schema.Boolean,
  system: Schema.Boolean,
  createdAt: Schema.String,
  updatedAt: Schema.String
})
export type Category = typeof Category.Type

/** A category as the categories routes show it. */
export const CategoryView = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  slug: Schema.String,
  color: Schema.String,
  description: Schema.NullOr(Schema.String),
  taxRate: Schema.NullOr(Schema.Number),
  taxType: Schema.NullOr(Schema.String),
  parentId: Schema.NullOr(Schema.String),
  type: CategoryType,
  excluded: Schema.Boolean,
  system: Schema.Boolean
})
export type CategoryView = typeof CategoryView.Type

/** The client view of a category. */
export const categoryView = (category: Category): CategoryView => ({
  id: category.id,
  name: category.name,
  slug: category.slug,
  color: category.color,
  description: category.description,
  taxRate: category.taxRate,
  taxType: category.taxType,
  parentId: category.parentId,
  type: category.type,
  excluded: category.excluded,
  system: category.system
})

/** The category object inside a transaction (SPEC.md). */
export const TransactionCategoryView = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  color: Schema.String,
  taxRate: Schema.NullOr(Schema.Finite),
  taxType: Schema.NullOr(Schema.String),
  slug: Schema.String
})
export type TransactionCategoryView = typeof TransactionCategoryView.Type

/** The category of a transaction as SPEC.md shows it. */
export const transactionCategoryView = (category: Category): TransactionCategoryView => ({
  id: category.id,
  name: category.name,
  color: category.color,
  taxRate: category.taxRate,
  taxType: category.taxType,
  slug: category.slug
})

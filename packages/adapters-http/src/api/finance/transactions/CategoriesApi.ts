import { CategoryType, CategoryView, HexColor, TaxRate, TransactionCategorySlug } from "@svc/domain/model"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import {
  CommonErrors,
  Conflict,
  Forbidden,
  ListOf,
  ListQuery,
  NotFound,
  PlatformAuth,
  RequiredScope,
  UuidParam
} from "../../shared/index.ts"

/** A category as the categories routes answer it. */
export const CategoryResponse = CategoryView

const Name = Schema.String.check(
  Schema.isTrimmed({ message: "must not start or end with spaces" }),
  Schema.isBetweenLength(1, 100, { message: "expected 1 to 100 characters" })
)
const Text = Schema.String.check(Schema.isMaxLength(500))
const TaxType = Schema.String.check(Schema.isBetweenLength(1, 50, { message: "expected 1 to 50 characters" }))

export const CreateCategoryRequest = Schema.Struct({
  name: Name,
  slug: Schema.optionalKey(TransactionCategorySlug),
  color: Schema.optionalKey(HexColor),
  description: Schema.optionalKey(Schema.NullOr(Text)),
  taxRate: Schema.optionalKey(Schema.NullOr(TaxRate)),
  taxType: Schema.optionalKey(Schema.NullOr(TaxType)),
  parentId: Schema.optionalKey(Schema.NullOr(UuidParam)),
  type: Schema.optionalKey(CategoryType),
  excluded: Schema.optionalKey(Schema.Boolean)
})

export const UpdateCategoryRequest = Schema.Struct({
  name: Schema.optionalKey(Name),
  slug: Schema.optionalKey(TransactionCategorySlug),
  color: Schema.optionalKey(HexColor),
  description: Schema.optionalKey(Schema.NullOr(Text)),
  taxRate: Schema.optionalKey(Schema.NullOr(TaxRate)),
  taxType: Schema.optionalKey(Schema.NullOr(TaxType)),
  parentId: Schema.optionalKey(Schema.NullOr(UuidParam)),
  type: Schema.optionalKey(CategoryType),
  excluded: Schema.optionalKey(Schema.Boolean)
})

const errors = [...CommonErrors, Forbidden] as const
const id = { id: UuidParam }

/** Transaction categories: the standard taxonomy and the team's own. Session, OAuth or generic API key. */
export class CategoriesApi extends HttpApiGroup.make("categories")
  .add(
    HttpApiEndpoint.get("list", "/transactions/categories", {
      query: ListQuery,
      success: ListOf(CategoryResponse),
      error: errors
    })
      .annotate(RequiredScope, "transactions.read")
      .annotate(OpenApi.Summary, "List transaction categories")
      .annotate(
        OpenApi.Description,
        "The team's categories, newest first: its own, then the standard taxonomy (`system: true`) every team starts " +
          "with. `parentId` links a subcategory to its parent (one level)."
      ),
    HttpApiEndpoint.get("get", "/transactions/categories/:id", {
      params: id,
      success: CategoryResponse,
      error: [...errors, NotFound]
    })
      .annotate(RequiredScope, "transactions.read")
      .annotate(OpenApi.Summary, "Get a transaction category")
      .annotate(
        OpenApi.Description,
        "One category of the team by id, its own or of the standard taxonomy; 404 `not_found` for an id the team " +
          "does not have."
      ),
    HttpApiEndpoint.post("create", "/transactions/categories", {
      payload: CreateCategoryRequest,
      success: CategoryResponse.pipe(HttpApiSchema.status(201)),
      error: [...errors, NotFound, Conflict]
    })
      .annotate(RequiredScope, "transactions.write")
      .annotate(OpenApi.Summary, "Create a transaction category")
      .annotate(
        OpenApi.Description,
        "Creates a team-defined category. The slug defaults to one made from the name and is unique in the team (409 " +
          "`slug_taken`). A subcategory (`parentId`, a top-level category of the team) takes its parent's color, type " +
          "and excluded flag unless given."
      ),
    HttpApiEndpoint.patch("update", "/transactions/categories/:id", {
      params: id,
      payload: UpdateCategoryRequest,
      success: CategoryResponse,
      error: [...errors, NotFound, Conflict]
    })
      .annotate(RequiredScope, "transactions.write")
      .annotate(OpenApi.Summary, "Update a transaction category")
      .annotate(
        OpenApi.Description,
        "Changes the given fields. A category of the standard taxonomy keeps its slug, type and parent (409 " +
          "`system_category`)."
      ),
    HttpApiEndpoint.delete("delete", "/transactions/categories/:id", {
      params: id,
      success: CategoryResponse,
      error: [...errors, NotFound, Conflict]
    })
      .annotate(RequiredScope, "transactions.write")
      .annotate(OpenApi.Summary, "Delete a transaction category")
      .annotate(
        OpenApi.Description,
        "Deletes a team-defined category and answers it: its subcategories become top-level and its transactions " +
          "uncategorised. Categories of the standard taxonomy cannot be deleted (409 `system_category`)."
      )
  )
  .middleware(PlatformAuth) {}

import {
  Categories,
  type CategoryId,
  type CategoryNotFound,
  type CategoryParentInvalid,
  type CategorySlugTaken,
  categoryView,
  type SystemCategoryLocked
} from "@svc/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../../api/Api.ts"
import { conflict } from "../../../api/shared/index.ts"
import { invalidField, listPaging, missingResource, orServiceUnavailable, principalTeamId } from "../../shared/index.ts"

const {
  CategoryNotFound: notFound,
  CategorySlugTaken: slugTaken,
  CategoryParentInvalid: parentInvalid,
  SystemCategoryLocked: locked
} = {
  CategoryNotFound: (e: CategoryNotFound) => Effect.fail(missingResource("category", e.categoryId, e.field)),
  CategorySlugTaken: (e: CategorySlugTaken) =>
    Effect.fail(conflict("slug_taken", `the team already has a category with slug ${e.slug}`)),
  CategoryParentInvalid: (e: CategoryParentInvalid) => Effect.fail(invalidField("parentId", e.message)),
  SystemCategoryLocked: (e: SystemCategoryLocked) => Effect.fail(conflict("system_category", e.message))
}

export const CategoriesHttp = HttpApiBuilder.group(Api, "categories", (handlers) =>
  Effect.gen(function* () {
    const { pageOfList } = yield* listPaging
    const categories = yield* Categories
    return handlers
      .handle("list", ({ query }) =>
        Effect.gen(function* () {
          const teamId = yield* principalTeamId
          return yield* pageOfList(`categories:${teamId}`, query, yield* categories.list(teamId), categoryView)
        }).pipe(orServiceUnavailable)
      )
      .handle("get", ({ params }) =>
        Effect.gen(function* () {
          const teamId = yield* principalTeamId
          return categoryView(yield* categories.get(teamId, params.id as CategoryId))
        }).pipe(Effect.catchTag("CategoryNotFound", notFound), orServiceUnavailable)
      )
      .handle("create", ({ payload }) =>
        Effect.gen(function* () {
          const teamId = yield* principalTeamId
          const created = yield* categories.create(teamId, {
            ...payload,
            parentId: payload.parentId as CategoryId | null | undefined
          })
          return categoryView(created)
        }).pipe(
          Effect.catchTags({
            CategoryNotFound: notFound,
            CategorySlugTaken: slugTaken,
            CategoryParentInvalid: parentInvalid
          }),
          orServiceUnavailable
        )
      )
      .handle("update", ({ params, payload }) =>
        Effect.gen(function* () {
          const teamId = yield* principalTeamId
          const updated = yield* categories.update(teamId, params.id as CategoryId, {
            ...payload,
            parentId: payload.parentId as CategoryId | null | undefined
          })
          return categoryView(updated)
        }).pipe(
          Effect.catchTags({
            CategoryNotFound: notFound,
            CategorySlugTaken: slugTaken,
            CategoryParentInvalid: parentInvalid,
            SystemCategoryLocked: locked
          }),
          orServiceUnavailable
        )
      )
      .handle("delete", ({ params }) =>
        Effect.gen(function* () {
          const teamId = yield* principalTeamId
          return categoryView(yield* categories.remove(teamId, params.id as CategoryId))
        }).pipe(Effect.catchTags({ CategoryNotFound: notFound, SystemCategoryLocked: locked }), orServiceUnavailable)
      )
  })
)

import { CursorKey, type Page, type Position, pageOfAll, pageRequest } from "@svc/domain"
import { Effect } from "effect"
import { badRequest } from "../../api/shared/index.ts"

/** 400 for a cursor that did not come from this list. */
const invalidCursor = () =>
  badRequest("invalid_cursor", "the cursor is not valid", [
    { path: "query.cursor", message: "not a cursor of this list" }
  ])

type ListQuery = {
  readonly cursor?: string | undefined
  readonly limit?: number | undefined
  readonly pageSize?: number | undefined
}

/** The page size a list query asks for: `limit`, else the twin's `pageSize`, else the list's default. */
export const requestedLimit = (query: ListQuery): number | undefined => query.limit ?? query.pageSize

/** The list helpers of a handler group, bound to the server's cursor key; a `scope` names a list and its owner. */
export const listPaging = Effect.gen(function* () {
  const key = yield* CursorKey
  const pageOf = (scope: string, query: ListQuery) =>
    Effect.gen(function* () {
      const cursor = query.cursor ? yield* key.open(scope, query.cursor) : undefined
      return yield* pageRequest(cursor, requestedLimit(query))
    }).pipe(Effect.mapError(invalidCursor))
  const signedPage = <B>(scope: string, page: Page<B>) =>
    Effect.gen(function* () {
      const cursor = page.meta.cursor === null ? null : yield* key.seal(scope, page.meta.cursor)
      return { ...page, meta: { ...page.meta, cursor } }
    })
  return {
    /** The page a `?cursor=&limit=` query asks for, from a cursor signed for the list. */
    pageOf,
    /** The page with its next cursor signed for the list, as clients receive it. */
    signedPage,
    /** The requested page of a small list held in full, in the list envelope. */
    pageOfList: <A extends Position, B>(
      scope: string,
      query: ListQuery,
      rows: ReadonlyArray<A>,
      render: (row: A) => B
    ) => Effect.flatMap(pageOf(scope, query), (page) => signedPage(scope, pageOfAll(page, rows, render)))
  }
})

import { type Page, type Position, pageOfAll, pageRequest } from "@svc/domain"
import { Effect } from "effect"
import { badRequest } from "../../api/shared/index.ts"

/** 400 for a cursor that did not come from this list. */
export const invalidCursor = () =>
  badRequest("invalid_cursor", "the cursor is not valid", [
    { path: "query.cursor", message: "not a cursor of this list" }
  ])

/** The page a `?cursor=&limit=` query asks for. */
export const pageOf = (query: { readonly cursor?: string | undefined; readonly limit?: number | undefined }) =>
  pageRequest(query.cursor, query.limit).pipe(Effect.mapError(invalidCursor))

/** The requested page of a small list held in full, in the list envelope. */
export const pageOfList = <A extends Position, B>(
  query: { readonly cursor?: string | undefined; readonly limit?: number | undefined },
  rows: ReadonlyArray<A>,
  render: (row: A) => B
): Effect.Effect<Page<B>, ReturnType<typeof invalidCursor>> =>
  Effect.map(pageOf(query), (page) => pageOfAll(page, rows, render))

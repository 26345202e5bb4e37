import { Effect, Option, Stream } from "effect"
import type { Page } from "./Shapes.ts"

/** A list request: the route's own request, whose `query` takes a `cursor`. */
// biome-ignore lint/suspicious/noConfusingVoidType: the request type of a list route that takes no query
type ListRequest = { readonly query?: { readonly cursor?: string } } | void

/** The request of the page after `cursor` (the first page when there is none). */
const atCursor = <R extends ListRequest>(request: R, cursor: string | null): R =>
  (cursor === null
    ? request
    : { ...(request as object), query: { ...(request as { query?: object } | undefined)?.query, cursor } }) as R

/**
 * Every item of a cursor list, page after page, as an async iterator; pages are fetched as the loop needs them.
 *
 * ```ts
 * for await (const transfer of paginate(sdk.transfers.list, { query: { limit: 100, status: "settled" } })) { ... }
 * ```
 */
export async function* paginate<R extends ListRequest, A>(
  list: (request: R) => Promise<Page<A>>,
  request: R
): AsyncGenerator<A, void, undefined> {
  let cursor: string | null = null
  do {
    const page: Page<A> = await list(atCursor(request, cursor))
    yield* page.data
    cursor = page.meta.hasNextPage ? page.meta.cursor : null
  } while (cursor !== null)
}

/** Every item of a cursor list as a Stream over the Effect client; pages are fetched as the stream is pulled. */
export const paginateStream = <R extends ListRequest, A, E>(
  list: (request: R) => Effect.Effect<Page<A>, E>,
  request: R
): Stream.Stream<A, E> =>
  Stream.paginate(null as string | null, (cursor) =>
    Effect.map(list(atCursor(request, cursor)), (page) => {
      const next = page.meta.hasNextPage ? page.meta.cursor : null
      return [page.data, next === null ? Option.none() : Option.some(next)] as const
    })
  )

import { Effect, Option, Schema } from "effect"
import { textFromBase64Url, toBase64Url, utf8 } from "./internal/Encoding.ts"

/** A position in a newest-first list: the last item a page ended on. */
export interface Position {
  readonly createdAt: string
  readonly id: string
}

/** What a list call asks for: items strictly older than `after`, at most `limit` of them. */
export interface PageRequest {
  readonly after: Option.Option<Position>
  readonly limit: number
}

/** A page of a newest-first list, in the envelope every list answers with. */
export interface Page<A> {
  readonly data: ReadonlyArray<A>
  readonly meta: { readonly cursor: string | null; readonly hasNextPage: boolean; readonly hasPreviousPage: boolean }
}

/** The cursor is opaque to clients and could not be read. */
export class InvalidCursor extends Schema.TaggedError<InvalidCursor>()("InvalidCursor", { cursor: Schema.String }) {}

const IsoTimestamp = Schema.String.check(
  Schema.isPattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?(?:Z|[+-]\d{2}:\d{2})$/u),
  Schema.makeFilter((text: string) => !Number.isNaN(Date.parse(text)))
)

const PositionJson = Schema.fromJsonString(
  Schema.Struct({ createdAt: IsoTimestamp, id: Schema.String.check(Schema.isUUID()) })
)

/** Encodes a position as an opaque base64url cursor. */
export const encodeCursor = (position: Position): string =>
  toBase64Url(utf8(JSON.stringify({ createdAt: position.createdAt, id: position.id })))

/** Turns the `?cursor=&limit=` of a list call into a page request. */
export const pageRequest = (
  cursor: string | undefined,
  limit: number | undefined
): Effect.Effect<PageRequest, InvalidCursor> =>
  cursor === undefined || cursor === ""
    ? Effect.succeed({ after: Option.none(), limit: limit ?? 20 })
    : Schema.decodeUnknownEffect(PositionJson)(textFromBase64Url(cursor) ?? "").pipe(
        Effect.map((position) => ({ after: Option.some(position), limit: limit ?? 20 })),
        Effect.mapError(() => new InvalidCursor({ cursor }))
      )

/** Builds a page from up to `limit + 1` rows fetched newest first. */
export const toPage = <A extends Position, B = A>(
  request: PageRequest,
  rows: ReadonlyArray<A>,
  render: (row: A) => B = (row) => row as unknown as B
): Page<B> => {
  const data = rows.slice(0, request.limit)
  const hasNextPage = rows.length > request.limit
  const last = data.at(-1)
  return {
    data: data.map(render),
    meta: {
      cursor: hasNextPage && last !== undefined ? encodeCursor(last) : null,
      hasNextPage,
      hasPreviousPage: Option.isSome(request.after)
    }
  }
}

/** Whether a row lies strictly after a position in newest-first order. */
export const isAfter = (row: Position, after: Option.Option<Position>): boolean =>
  Option.match(after, {
    onNone: () => true,
    onSome: (p) => row.createdAt < p.createdAt || (row.createdAt === p.createdAt && row.id < p.id)
  })

/** Newest-first order on (createdAt, id). */
export const newestFirst = (a: Position, b: Position): number =>
  a.createdAt === b.createdAt ? (a.id < b.id ? 1 : a.id > b.id ? -1 : 0) : a.createdAt < b.createdAt ? 1 : -1

/**
 * The rows of a page that merges several newest-first lists, each fetched for the same request (so each holds the
 * page's rows of its kind and one more): newest first, the page's rows and one more, ready for `toPage`.
 */
export const mergedPageRows = <A extends Position>(
  request: PageRequest,
  lists: ReadonlyArray<ReadonlyArray<A>>
): ReadonlyArray<A> =>
  lists
    .flat()
    .toSorted(newestFirst)
    .slice(0, request.limit + 1)

/** A page of a list held in full (small, bounded lists): newest first, strictly after the request's position. */
export const pageOfAll = <A extends Position, B>(
  request: PageRequest,
  rows: ReadonlyArray<A>,
  render: (row: A) => B
): Page<B> =>
  toPage(
    request,
    rows
      .filter((row) => isAfter(row, request.after))
      .toSorted(newestFirst)
      .slice(0, request.limit + 1),
    render
  )

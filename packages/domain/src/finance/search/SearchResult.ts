import { Schema, Struct } from "effect"
import { renderMinor } from "../money/model.ts"

/** What GET /search looks through; adding a type is one value here and one query fragment per adapter. */
export const SEARCH_TYPES = ["transaction", "customer", "invoice", "document", "inbox"] as const
export const SearchType = Schema.Literals(SEARCH_TYPES)
export type SearchType = typeof SearchType.Type

/**
 * How much of a received e-mail's subject and text body is searched: their first characters, so a sender's huge
 * message still fits a Postgres text-search document (at most 1 MB) and is stored.
 */
export const SEARCHED_TEXT_CHARS = 100_000

/** The most results one search answers. */
export const SEARCH_LIMIT_MAX = 50

/** One thing a search found: what it is, how it is shown, and how well it matched (higher first). */
export const SearchHit = Schema.Struct({
  type: SearchType,
  id: Schema.String,
  title: Schema.String,
  subtitle: Schema.NullOr(Schema.String),
  amountMinor: Schema.NullOr(Schema.Int),
  currency: Schema.NullOr(Schema.String),
  date: Schema.NullOr(Schema.String),
  rank: Schema.Number
})
export type SearchHit = typeof SearchHit.Type

/** A search result as clients see it; `amount` in major units of `currency`, `date` a calendar day. */
export const SearchResultView = Schema.Struct({
  ...Struct.pick(SearchHit.fields, ["type", "id", "title", "subtitle"]),
  amount: Schema.NullOr(Schema.Number),
  ...Struct.pick(SearchHit.fields, ["currency", "date", "rank"])
})
export type SearchResultView = typeof SearchResultView.Type

/** The client view of a hit. */
export const searchResultView = ({ amountMinor, ...hit }: SearchHit): SearchResultView => ({
  ...hit,
  amount: amountMinor === null || hit.currency === null ? null : renderMinor(amountMinor, hit.currency)
})

/** The order of results: best rank first, then latest date (undated last), then type and id. */
export const searchOrder = (a: SearchHit, b: SearchHit): number => {
  if (a.rank !== b.rank) return b.rank - a.rank
  if (a.date !== b.date) return a.date === null ? 1 : b.date === null ? -1 : a.date < b.date ? 1 : -1
  if (a.type !== b.type) return a.type < b.type ? -1 : 1
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}

const TITLE_WEIGHT = 1
const BODY_WEIGHT = 0.4

/**
 * A deterministic rank of a document of title and body words for the query words, or none when a query word starts no
 * word of either (every word must match, as a prefix). Each query word scores its field's weight for a prefix match and
 * again for a whole-word match, the title weighing more than the body: the ordering rules of Postgres's `ts_rank` over
 * a title weighted A and a body weighted B, as the Postgres adapter ranks.
 */
export const tokenRank = (
  title: ReadonlyArray<string>,
  body: ReadonlyArray<string>,
  query: ReadonlyArray<string>
): number | undefined => {
  let rank = 0
  for (const word of query) {
    const weightOf = (test: (w: string) => boolean) =>
      title.some(test) ? TITLE_WEIGHT : body.some(test) ? BODY_WEIGHT : 0
    const prefix = weightOf((w) => w.startsWith(word))
    if (prefix === 0) return undefined
    rank += prefix + weightOf((w) => w === word)
  }
  return rank
}

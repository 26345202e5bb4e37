import { SearchHit, SearchRepo, type SearchRequest, type SearchType, type TeamId } from "@svc/domain"
import { Effect, Layer, Schema } from "effect"
import { SqlClient, type Statement } from "effect/sql"
import { decodeRows, orUnavailable, SafeIntegerColumn } from "../../shared/index.ts"

const HitRow = Schema.Struct({ ...SearchHit.fields, amountMinor: Schema.NullOr(SafeIntegerColumn) })

const words = (text: string) => `regexp_replace(${text}, '[[:punct:][:space:]]+', ' ', 'g')`

/** A table's weighted document: the title weighted A, the rest B (migration 0029 indexes exactly these). */
const documentOf = (title: string, body: ReadonlyArray<string>) =>
  `(setweight(to_tsvector('simple', ${words(title)}), 'A') || ` +
  `setweight(to_tsvector('simple', ${words(body.map((b) => `coalesce(${b}, '')`).join(" || ' ' || "))}), 'B'))`

const TRANSACTION_DOCUMENT = documentOf("name", ["description", "counterparty_name"])
const CUSTOMER_DOCUMENT = documentOf("name", ["email", "contact", "website", "note"])

/** The bound parameters of a search: the team, the prefix query text, the words, the limit. */
interface Query {
  readonly teamId: TeamId
  readonly prefix: string
  readonly words: string
  readonly limit: number
}

/**
 * One SELECT per searchable type, each with the same columns (type, id, title, subtitle, amount_minor, currency, date,
 * rank), its best `limit` rows: a new type is one entry here and one index. Every word must start a word of the
 * document (`to_tsquery` prefixes); whole words (`websearch_to_tsquery`) rank again on top of that.
 */
const FRAGMENTS: {
  readonly [K in SearchType]: (sql: SqlClient.SqlClient, q: Query) => Statement.Fragment
} = {
  transaction: (sql, q) => sql`
    SELECT 'transaction' AS type, id::text AS id, name AS title, counterparty_name AS subtitle, amount_minor, currency,
      to_char(date, 'YYYY-MM-DD') AS date,
      (ts_rank(${sql.unsafe(TRANSACTION_DOCUMENT)}, to_tsquery('simple', ${q.prefix})) +
       ts_rank(${sql.unsafe(TRANSACTION_DOCUMENT)}, websearch_to_tsquery('simple', ${q.words})))::float8 AS rank
    FROM transactions
    WHERE team_id = ${q.teamId} AND ${sql.unsafe(TRANSACTION_DOCUMENT)} @@ to_tsquery('simple', ${q.prefix})
    ORDER BY rank DESC, date DESC, id LIMIT ${q.limit}`,
  customer: (sql, q) => sql`
    SELECT 'customer' AS type, id::text AS id, name AS title, coalesce(email, website) AS subtitle,
      NULL::bigint AS amount_minor, NULL::text AS currency, NULL::text AS date,
      (ts_rank(${sql.unsafe(CUSTOMER_DOCUMENT)}, to_tsquery('simple', ${q.prefix})) +
       ts_rank(${sql.unsafe(CUSTOMER_DOCUMENT)}, websearch_to_tsquery('simple', ${q.words})))::float8 AS rank
    FROM customers
    WHERE team_id = ${q.teamId} AND ${sql.unsafe(CUSTOMER_DOCUMENT)} @@ to_tsquery('simple', ${q.prefix})
    ORDER BY rank DESC, id LIMIT ${q.limit}`
}

/** The search: the fragments of the requested types, combined with UNION ALL and ranked together. */
export const searchStatement = (sql: SqlClient.SqlClient, teamId: TeamId, request: SearchRequest) => {
  const q: Query = {
    teamId,
    prefix: request.words.map((w) => `${w}:*`).join(" & "),
    words: request.words.join(" "),
    limit: request.limit
  }
  const selects = request.types.map((type) => sql`(${FRAGMENTS[type](sql, q)})`)
  return sql`
    SELECT * FROM (${sql.join(" UNION ALL ", false)(selects)}) hits
    ORDER BY rank DESC, date DESC NULLS LAST, type, id LIMIT ${request.limit}`
}

/** SearchRepo on Postgres. */
export const SearchRepoPg = Layer.effect(
  SearchRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return SearchRepo.of({
      search: (teamId, request) =>
        searchStatement(sql, teamId, request).pipe(
          orUnavailable("search.search"),
          Effect.flatMap(decodeRows(HitRow, "search.search"))
        )
    })
  })
)

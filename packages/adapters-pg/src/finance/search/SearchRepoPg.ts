import {
  Invoice,
  invoiceTotals,
  SEARCHED_TEXT_CHARS,
  SearchHit,
  SearchRepo,
  type SearchRequest,
  type SearchType,
  type TeamId
} from "@svc/domain"
import { Effect, Layer, Schema } from "effect"
import type { SqlClient, Statement } from "effect/sql"
import { decodeRows, orUnavailable, replicaReads, SafeIntegerColumn } from "../../shared/index.ts"

/**
 * A row: an invoice's hit carries its line items and discount (`invoice_sums`, JSON text), of which its amount is the
 * total; other types have none.
 */
const HitRow = Schema.Struct({
  ...SearchHit.fields,
  amountMinor: Schema.NullOr(SafeIntegerColumn),
  invoiceSums: Schema.NullOr(
    Schema.fromJsonString(
      Schema.Struct({ lineItems: Invoice.fields.lineItems, discountMinor: Invoice.fields.discountMinor })
    )
  )
})

const hitOf = ({ invoiceSums, ...hit }: typeof HitRow.Type): SearchHit =>
  invoiceSums === null ? hit : { ...hit, amountMinor: invoiceTotals(invoiceSums).totalMinor }

const words = (text: string) => `regexp_replace(${text}, '[[:punct:][:space:]]+', ' ', 'g')`

/** A table's weighted document: the title weighted A, the rest B (migrations 0029 and 0030 index exactly these). */
const documentOf = (title: string, body: ReadonlyArray<string>) =>
  `(setweight(to_tsvector('simple', ${words(title)}), 'A') || ` +
  `setweight(to_tsvector('simple', ${words(body.map((b) => `coalesce(${b}, '')`).join(" || ' ' || "))}), 'B'))`

const TRANSACTION_DOCUMENT = documentOf("name", ["description", "counterparty_name"])
const CUSTOMER_DOCUMENT = documentOf("name", ["email", "contact", "website", "note"])
const INVOICE_DOCUMENT = documentOf("invoice_number || ' ' || customer_name", [
  "search_json_texts(line_items, 'name')",
  "note"
])
const DOCUMENT_DOCUMENT = documentOf("title", ["name", "content_type"])
const INBOX_DOCUMENT = documentOf(`left(subject, ${SEARCHED_TEXT_CHARS})`, [
  "sender",
  `left(text_body, ${SEARCHED_TEXT_CHARS})`,
  "search_json_texts(attachments, 'filename')"
])

/** The bound parameters of a search: the team, the prefix query text, the words, the limit. */
interface Query {
  readonly teamId: TeamId
  readonly prefix: string
  readonly words: string
  readonly limit: number
}

/** A document's rank for the query: its prefix match plus its whole-word match (`ts_rank` of each). */
const rankOf = (sql: SqlClient.SqlClient, document: string, q: Query) => sql`
  (ts_rank(${sql.unsafe(document)}, to_tsquery('simple', ${q.prefix})) +
   ts_rank(${sql.unsafe(document)}, websearch_to_tsquery('simple', ${q.words})))::float8`

/** Whether every word starts a word of the document (the condition its index serves). */
const matches = (sql: SqlClient.SqlClient, document: string, q: Query) =>
  sql`${sql.unsafe(document)} @@ to_tsquery('simple', ${q.prefix})`

/**
 * One SELECT per searchable type, each with the same columns (type, id, title, subtitle, amount_minor, currency, date,
 * rank, invoice_sums), its best `limit` rows in the order of the whole search: a new type is one entry here and one
 * index. Every word must start a word of the document (`to_tsquery` prefixes); whole words (`websearch_to_tsquery`)
 * rank again on top of that.
 */
const FRAGMENTS: {
  readonly [K in SearchType]: (sql: SqlClient.SqlClient, q: Query) => Statement.Fragment
} = {
  transaction: (sql, q) => sql`
    SELECT 'transaction' AS type, id::text AS id, name AS title, counterparty_name AS subtitle, amount_minor, currency,
      to_char(date, 'YYYY-MM-DD') AS date, ${rankOf(sql, TRANSACTION_DOCUMENT, q)} AS rank, NULL::text AS invoice_sums
    FROM transactions
    WHERE team_id = ${q.teamId} AND ${matches(sql, TRANSACTION_DOCUMENT, q)}
    ORDER BY rank DESC, date DESC, id LIMIT ${q.limit}`,
  customer: (sql, q) => sql`
    SELECT 'customer' AS type, id::text AS id, name AS title, coalesce(email, website) AS subtitle,
      NULL::bigint AS amount_minor, NULL::text AS currency, NULL::text AS date,
      ${rankOf(sql, CUSTOMER_DOCUMENT, q)} AS rank, NULL::text AS invoice_sums
    FROM customers
    WHERE team_id = ${q.teamId} AND ${matches(sql, CUSTOMER_DOCUMENT, q)}
    ORDER BY rank DESC, id LIMIT ${q.limit}`,
  invoice: (sql, q) => sql`
    SELECT 'invoice' AS type, id::text AS id, invoice_number AS title, customer_name AS subtitle,
      NULL::bigint AS amount_minor, currency, to_char(issue_date, 'YYYY-MM-DD') AS date,
      ${rankOf(sql, INVOICE_DOCUMENT, q)} AS rank,
      json_build_object('lineItems', line_items, 'discountMinor', discount_minor)::text AS invoice_sums
    FROM invoices
    WHERE team_id = ${q.teamId} AND ${matches(sql, INVOICE_DOCUMENT, q)}
    ORDER BY rank DESC, date DESC, id LIMIT ${q.limit}`,
  document: (sql, q) => sql`
    SELECT 'document' AS type, id::text AS id, title, name AS subtitle, NULL::bigint AS amount_minor,
      NULL::text AS currency, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS date,
      ${rankOf(sql, DOCUMENT_DOCUMENT, q)} AS rank, NULL::text AS invoice_sums
    FROM documents
    WHERE team_id = ${q.teamId} AND ${matches(sql, DOCUMENT_DOCUMENT, q)}
    ORDER BY rank DESC, date DESC, id LIMIT ${q.limit}`,
  inbox: (sql, q) => sql`
    SELECT 'inbox' AS type, id::text AS id, subject AS title, sender AS subtitle, NULL::bigint AS amount_minor,
      NULL::text AS currency, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS date,
      ${rankOf(sql, INBOX_DOCUMENT, q)} AS rank, NULL::text AS invoice_sums
    FROM inbox_items
    WHERE team_id = ${q.teamId} AND ${matches(sql, INBOX_DOCUMENT, q)}
    ORDER BY rank DESC, date DESC, id LIMIT ${q.limit}`
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
    const reads = yield* replicaReads
    return SearchRepo.of({
      search: (teamId, request) =>
        reads("search.search", (sql) => searchStatement(sql, teamId, request)).pipe(
          orUnavailable("search.search"),
          Effect.flatMap(decodeRows(HitRow, "search.search")),
          Effect.map((rows) => rows.map(hitOf))
        )
    })
  })
)

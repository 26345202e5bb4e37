import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * GET /search over invoices, documents and inbox items: as in 0029, one GIN expression index per table over its weighted
 * document (the title weighted A, the rest B, punctuation read as spaces), the expressions the search queries match.
 * `search_json_texts` reads one text field of every element of a JSON array (line item names, attachment file names)
 * as words separated by spaces. A received e-mail's subject and text body count up to their first 100000 characters,
 * so any message fits a text-search document (at most 1 MB) and is stored.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE FUNCTION search_json_texts(items jsonb, field text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$ SELECT coalesce(string_agg(e ->> field, ' '), '') FROM jsonb_array_elements(items) AS e $$`
  yield* sql`
    CREATE INDEX invoices_search_rank_idx ON invoices USING gin ((
      setweight(to_tsvector('simple', regexp_replace(
        invoice_number || ' ' || customer_name, '[[:punct:][:space:]]+', ' ', 'g')), 'A') ||
      setweight(to_tsvector('simple', regexp_replace(
        coalesce(search_json_texts(line_items, 'name'), '') || ' ' || coalesce(note, ''),
        '[[:punct:][:space:]]+', ' ', 'g')), 'B')
    ))`
  yield* sql`
    CREATE INDEX documents_search_rank_idx ON documents USING gin ((
      setweight(to_tsvector('simple', regexp_replace(title, '[[:punct:][:space:]]+', ' ', 'g')), 'A') ||
      setweight(to_tsvector('simple', regexp_replace(
        coalesce(name, '') || ' ' || coalesce(content_type, ''), '[[:punct:][:space:]]+', ' ', 'g')), 'B')
    ))`
  yield* sql`
    CREATE INDEX inbox_items_search_rank_idx ON inbox_items USING gin ((
      setweight(to_tsvector('simple', regexp_replace(
        left(subject, 100000), '[[:punct:][:space:]]+', ' ', 'g')), 'A') ||
      setweight(to_tsvector('simple', regexp_replace(
        coalesce(sender, '') || ' ' || coalesce(left(text_body, 100000), '') || ' ' ||
        coalesce(search_json_texts(attachments, 'filename'), ''), '[[:punct:][:space:]]+', ' ', 'g')), 'B')
    ))`
})

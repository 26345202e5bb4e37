import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * GET /search: one GIN expression index per searchable table over its weighted document (the title weighted A, the
 * rest B, punctuation read as spaces), the same expressions the search queries match, so a search reads the index.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE INDEX transactions_search_rank_idx ON transactions USING gin ((
      setweight(to_tsvector('simple', regexp_replace(name, '[[:punct:][:space:]]+', ' ', 'g')), 'A') ||
      setweight(to_tsvector('simple', regexp_replace(
        coalesce(description, '') || ' ' || coalesce(counterparty_name, ''), '[[:punct:][:space:]]+', ' ', 'g')), 'B')
    ))`
  yield* sql`
    CREATE INDEX customers_search_rank_idx ON customers USING gin ((
      setweight(to_tsvector('simple', regexp_replace(name, '[[:punct:][:space:]]+', ' ', 'g')), 'A') ||
      setweight(to_tsvector('simple', regexp_replace(
        coalesce(email, '') || ' ' || coalesce(contact, '') || ' ' || coalesce(website, '') || ' ' || coalesce(note, ''),
        '[[:punct:][:space:]]+', ' ', 'g')), 'B')
    ))`
})

import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Sign-in link requests are queued and handled by the sign-in pass (ADR 0044): the queue, in arrival order, and the
 * client each link was asked from, whose allowance it spends. Links stored before this migration count as asked from
 * an unknown client (they expire within 15 minutes anyway).
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE sign_in_link_requests (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      email text NOT NULL,
      requested_from text NOT NULL,
      requested_at timestamptz NOT NULL
    )`
  yield* sql`ALTER TABLE sign_in_links ADD COLUMN requested_from text NOT NULL DEFAULT 'unknown'`
  yield* sql`ALTER TABLE sign_in_links ALTER COLUMN requested_from DROP DEFAULT`
})

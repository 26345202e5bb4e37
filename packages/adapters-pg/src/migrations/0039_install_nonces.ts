import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The nonces of the chat app's and the mail connection's install states already used (ADR 0042): the primary key makes
 * consuming one a single atomic insert; rows are purged once no state carrying them can be accepted.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE install_nonces (
      purpose text NOT NULL,
      nonce text NOT NULL,
      used_at timestamptz NOT NULL,
      keep_until timestamptz NOT NULL,
      PRIMARY KEY (purpose, nonce),
      CHECK (keep_until > used_at)
    )`
  yield* sql`CREATE INDEX install_nonces_keep_until_idx ON install_nonces (keep_until)`
})

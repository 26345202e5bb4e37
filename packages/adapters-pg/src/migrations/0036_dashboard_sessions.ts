import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Dashboard sign-in (ADR 0037): one-time sign-in links and cookie sessions, both stored by the SHA-256 hash of their
 * token; users are found by e-mail without case.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE sign_in_links (
      token_hash text PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users(id),
      expires_at timestamptz NOT NULL,
      consumed_at timestamptz,
      created_at timestamptz NOT NULL,
      CHECK (expires_at > created_at)
    )`
  yield* sql`CREATE INDEX sign_in_links_user_idx ON sign_in_links (user_id, created_at)`
  yield* sql`
    CREATE TABLE dashboard_sessions (
      id uuid PRIMARY KEY,
      token_hash text NOT NULL UNIQUE,
      user_id uuid NOT NULL REFERENCES users(id),
      csrf_token text NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz,
      CHECK (expires_at > created_at)
    )`
  yield* sql`CREATE INDEX dashboard_sessions_user_idx ON dashboard_sessions (user_id)`
  yield* sql`CREATE INDEX users_email_lower_idx ON users (lower(email))`
})

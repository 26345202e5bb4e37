import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/** Stored first responses of idempotent /v1 requests, and the shared token buckets of the /v1 rate limit. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE idempotency_responses (
      team_id uuid NOT NULL,
      mode text NOT NULL CHECK (mode IN ('live', 'test')),
      credential_id text NOT NULL,
      method text NOT NULL,
      path text NOT NULL,
      key text NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
      fingerprint text NOT NULL,
      status integer NOT NULL,
      headers jsonb NOT NULL,
      body bytea NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (team_id, mode, credential_id, method, path, key)
    )`
  yield* sql`CREATE INDEX idempotency_responses_created_idx ON idempotency_responses (created_at)`
  yield* sql`
    CREATE TABLE rate_limit_buckets (
      key text PRIMARY KEY,
      tokens double precision NOT NULL,
      allowed boolean NOT NULL,
      updated_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX rate_limit_buckets_updated_idx ON rate_limit_buckets (updated_at)`
})

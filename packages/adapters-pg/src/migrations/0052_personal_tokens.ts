import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Personal tokens (ADR 0057): a dashboard session with a name is a person's bearer credential for the CLI, listed by
 * its name and preview; browser sessions keep both null.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE dashboard_sessions ADD COLUMN name text, ADD COLUMN preview text`
  yield* sql`ALTER TABLE dashboard_sessions ADD CONSTRAINT dashboard_sessions_personal_token_check
               CHECK ((name IS NULL) = (preview IS NULL))`
  yield* sql`CREATE INDEX dashboard_sessions_personal_tokens_idx ON dashboard_sessions (user_id, created_at DESC)
               WHERE name IS NOT NULL`
})

import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * A user's display preferences (GET/PATCH /users/me): locale, time zone, first day of the week, time and date formats.
 * Null until the user sets one; the service only stores and answers them.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    ALTER TABLE users
      ADD COLUMN locale text,
      ADD COLUMN timezone text,
      ADD COLUMN timezone_auto_sync boolean,
      ADD COLUMN week_starts_on_monday boolean,
      ADD COLUMN time_format smallint CHECK (time_format IN (12, 24)),
      ADD COLUMN date_format text`
})

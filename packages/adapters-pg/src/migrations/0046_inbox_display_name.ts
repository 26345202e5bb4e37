import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/** An inbox item's display name, as a member renames it (`PATCH /inbox/:id` `displayName`); null until then. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE inbox_items ADD COLUMN display_name text`
})

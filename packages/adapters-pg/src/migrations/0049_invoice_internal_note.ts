import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * An invoice's internal note: the team's own words about it, answered on the team's invoice routes only (never on the
 * PDF, the public token's routes or events). Null until set.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE invoices ADD COLUMN internal_note text`
})

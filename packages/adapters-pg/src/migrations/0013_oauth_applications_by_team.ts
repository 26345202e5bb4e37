import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/** A team lists its OAuth applications newest first. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE INDEX oauth_applications_team_idx ON oauth_applications (team_id, created_at DESC, id DESC)
    WHERE team_id IS NOT NULL`
})

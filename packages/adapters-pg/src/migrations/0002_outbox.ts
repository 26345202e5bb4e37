import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/** The transactional outbox of domain events. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE outbox_events (
      id uuid PRIMARY KEY,
      team_id uuid NOT NULL REFERENCES teams(id),
      mode text NOT NULL CHECK (mode IN ('live', 'test')),
      type text NOT NULL,
      data jsonb NOT NULL,
      created_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX outbox_events_team_idx ON outbox_events (team_id, created_at DESC, id DESC)`
})

import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Inbound events a team reviews: `team_id` is the team the event's command names (no foreign key: a command may name a
 * team that does not exist, which parks it), and a parked event may be `discarded` by a user, kept for audit. Events
 * stored before this migration name no team (their payloads are read per provider, in code), so only operators see them.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    ALTER TABLE inbound_events
      ADD COLUMN team_id uuid,
      ADD COLUMN discarded_at timestamptz,
      ADD COLUMN discarded_by uuid REFERENCES users(id),
      DROP CONSTRAINT inbound_events_status_check,
      ADD CONSTRAINT inbound_events_status_check CHECK (status IN ('pending', 'processed', 'parked', 'discarded')),
      ADD CONSTRAINT inbound_events_discarded_check
        CHECK ((status = 'discarded') = (discarded_at IS NOT NULL AND discarded_by IS NOT NULL))`
  yield* sql`
    CREATE INDEX inbound_events_team_idx ON inbound_events (team_id, status, received_at DESC, id DESC)
    WHERE team_id IS NOT NULL`
})

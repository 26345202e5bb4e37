import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Notifications made from outbox events (one per event: `event_id` is unique, and `notified_at` marks the events a
 * notification pass has taken, set in the pass's transaction; events before this migration count as taken), team
 * invitations (the token only as its SHA-256 hash), and customers.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE notifications (
      id uuid PRIMARY KEY,
      team_id uuid NOT NULL REFERENCES teams(id),
      user_id uuid REFERENCES users(id),
      type text NOT NULL,
      priority integer NOT NULL CHECK (priority BETWEEN 1 AND 10),
      source text NOT NULL CHECK (source IN ('system', 'user')),
      status text NOT NULL CHECK (status IN ('unread', 'read', 'archived')),
      metadata jsonb NOT NULL,
      last_used_at timestamptz,
      event_id uuid UNIQUE,
      created_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX notifications_team_idx ON notifications (team_id, created_at DESC, id DESC)`
  yield* sql`ALTER TABLE outbox_events ADD COLUMN notified_at timestamptz`
  yield* sql`UPDATE outbox_events SET notified_at = now()`
  yield* sql`CREATE INDEX outbox_events_unnotified_idx ON outbox_events (created_at, id) WHERE notified_at IS NULL`

  yield* sql`
    CREATE TABLE team_invites (
      id uuid PRIMARY KEY,
      team_id uuid NOT NULL REFERENCES teams(id),
      email text NOT NULL,
      role text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
      token_hash text NOT NULL UNIQUE,
      invited_by uuid NOT NULL REFERENCES users(id),
      expires_at timestamptz NOT NULL,
      accepted_at timestamptz,
      accepted_by uuid REFERENCES users(id),
      created_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((accepted_at IS NULL) = (accepted_by IS NULL))
    )`
  yield* sql`CREATE INDEX team_invites_team_idx ON team_invites (team_id, created_at DESC, id DESC)`

  yield* sql`
    CREATE TABLE customers (
      id uuid PRIMARY KEY,
      team_id uuid NOT NULL REFERENCES teams(id),
      name text NOT NULL CHECK (name <> ''),
      email text,
      billing_email text,
      phone text,
      website text,
      contact text,
      address_line1 text,
      address_line2 text,
      city text,
      state text,
      zip text,
      country_code text CHECK (country_code ~ '^[A-Z]{2}$'),
      vat_number text,
      note text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX customers_team_idx ON customers (team_id, created_at DESC, id DESC)`
})

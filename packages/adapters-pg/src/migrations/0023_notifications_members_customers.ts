import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The outbox event types a member is told about, as of this migration (the domain's `NOTIFYING_EVENTS`; a test checks
 * they agree). A later change to the list is a new migration replacing the trigger function.
 */
const NOTIFYING_TYPES = [
  "spend_request.approval_required",
  "transfer.approval_required",
  "checkout_intent.approval_required",
  "webhook_endpoint.disabled",
  "bank_connection.disconnected",
  "transfer.created"
]

/**
 * Notifications made from outbox events: a statement trigger copies each event of a notifying type into
 * `notification_queue` in the inserting transaction (whatever writes the outbox), and a notification pass turns queued
 * events into notifications and deletes them from the queue in one transaction (`notifications.event_id` is unique).
 * The outbox's own rows are never locked by it, so webhook fan-out never waits for or skips past a pass. Also team
 * invitations (the token only as its SHA-256 hash) and customers.
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
  yield* sql`
    CREATE TABLE notification_queue (
      event_id uuid PRIMARY KEY,
      team_id uuid NOT NULL REFERENCES teams(id),
      mode text NOT NULL,
      type text NOT NULL,
      data jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX notification_queue_order_idx ON notification_queue (created_at, event_id)`
  yield* sql`
    CREATE FUNCTION outbox_events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO notification_queue (event_id, team_id, mode, type, data, created_at)
      SELECT e.id, e.team_id, e.mode, e.type, e.data, e.created_at FROM new_events e
      WHERE e.type IN (${sql.unsafe(NOTIFYING_TYPES.map((t) => `'${t}'`).join(", "))});
      RETURN NULL;
    END $$`
  yield* sql`
    CREATE TRIGGER outbox_events_notify AFTER INSERT ON outbox_events
    REFERENCING NEW TABLE AS new_events
    FOR EACH STATEMENT EXECUTE FUNCTION outbox_events_notify()`

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

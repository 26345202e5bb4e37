import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/** Inbound provider events, the records they update, outbound webhook endpoints and their deliveries. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE inbound_events (
      id uuid PRIMARY KEY,
      endpoint text NOT NULL,
      provider_event_id text NOT NULL,
      type text NOT NULL,
      payload jsonb NOT NULL,
      status text NOT NULL CHECK (status IN ('pending', 'processed', 'parked')),
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz NOT NULL,
      last_error text,
      received_at timestamptz NOT NULL,
      processed_at timestamptz,
      CONSTRAINT inbound_events_provider_key UNIQUE (endpoint, provider_event_id)
    )`
  yield* sql`CREATE INDEX inbound_events_due_idx ON inbound_events (next_attempt_at) WHERE status = 'pending'`
  yield* sql`CREATE INDEX inbound_events_parked_idx ON inbound_events (received_at DESC, id DESC) WHERE status = 'parked'`
  yield* sql`
    CREATE VIEW inbound_events_parked AS
      SELECT id, endpoint, provider_event_id, type, attempts, last_error, received_at
      FROM inbound_events WHERE status = 'parked'`
  yield* sql`
    CREATE TABLE managed_entities (
      id uuid PRIMARY KEY,
      team_id uuid NOT NULL REFERENCES teams(id),
      name text NOT NULL,
      kyc_status text NOT NULL CHECK (kyc_status IN ('not_started', 'pending', 'in_review', 'approved', 'rejected')),
      kyc_provider text,
      kyc_updated_at timestamptz,
      created_at timestamptz NOT NULL
    )`
  yield* sql`
    CREATE TABLE bank_connections (
      id uuid PRIMARY KEY,
      team_id uuid NOT NULL REFERENCES teams(id),
      provider text NOT NULL,
      external_id text NOT NULL,
      status text NOT NULL CHECK (status IN ('connected', 'disconnected')),
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      CONSTRAINT bank_connections_external_key UNIQUE (provider, external_id)
    )`
  yield* sql`
    CREATE TABLE team_plans (
      team_id uuid PRIMARY KEY REFERENCES teams(id),
      plan text NOT NULL,
      status text NOT NULL,
      updated_at timestamptz NOT NULL
    )`
  yield* sql`
    CREATE TABLE inbox_items (
      id uuid PRIMARY KEY,
      team_id uuid NOT NULL REFERENCES teams(id),
      message_id text NOT NULL,
      sender text NOT NULL,
      recipient text NOT NULL,
      subject text NOT NULL,
      text_body text NOT NULL,
      html_body text NOT NULL,
      attachments jsonb NOT NULL,
      created_at timestamptz NOT NULL,
      CONSTRAINT inbox_items_message_key UNIQUE (team_id, message_id)
    )`
  yield* sql`
    CREATE TABLE webhook_endpoints (
      id uuid PRIMARY KEY,
      team_id uuid NOT NULL REFERENCES teams(id),
      url text NOT NULL,
      event_types jsonb NOT NULL,
      enabled boolean NOT NULL,
      disabled_reason text,
      secret_salt text NOT NULL,
      previous_secret_salt text,
      previous_secret_expires_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX webhook_endpoints_team_idx ON webhook_endpoints (team_id, created_at DESC, id DESC)`
  yield* sql`
    CREATE TABLE webhook_deliveries (
      id uuid PRIMARY KEY,
      team_id uuid NOT NULL REFERENCES teams(id),
      endpoint_id uuid NOT NULL REFERENCES webhook_endpoints(id),
      event_id uuid NOT NULL,
      event_type text NOT NULL,
      body text NOT NULL,
      status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
      attempts integer NOT NULL,
      next_attempt_at timestamptz NOT NULL,
      last_status_code integer,
      last_error text,
      redelivery_of uuid REFERENCES webhook_deliveries(id),
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      delivered_at timestamptz
    )`
  yield* sql`
    CREATE UNIQUE INDEX webhook_deliveries_event_key ON webhook_deliveries (endpoint_id, event_id)
    WHERE redelivery_of IS NULL`
  yield* sql`CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`
  yield* sql`CREATE INDEX webhook_deliveries_log_idx ON webhook_deliveries (endpoint_id, created_at DESC, id DESC)`
  yield* sql`ALTER TABLE outbox_events ADD COLUMN webhooks_dispatched_at timestamptz`
  yield* sql`
    CREATE INDEX outbox_events_undispatched_idx ON outbox_events (created_at, id)
    WHERE webhooks_dispatched_at IS NULL`
})

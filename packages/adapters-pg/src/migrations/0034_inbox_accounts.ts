import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The outbox event types a member is told about, as of this migration (the domain's `NOTIFYING_EVENTS`; the
 * notifications contract checks they agree): 0033's list and `inbox_account.connection_failed`.
 */
const NOTIFYING_TYPES = [
  "spend_request.approval_required",
  "transfer.approval_required",
  "checkout_intent.approval_required",
  "crypto_payout.approval_required",
  "webhook_endpoint.disabled",
  "bank_connection.disconnected",
  "chat_integration.disconnected",
  "inbox_account.connection_failed",
  "transfer.created",
  "invoice.paid"
]

/**
 * Connected mailboxes (ADR 0035): one row per (team, address), its tokens sealed (`v1.` AES-256-GCM text, never
 * plaintext: a check refuses anything else); a disconnected mailbox's row is deleted. The notification trigger learns
 * `inbox_account.connection_failed`.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE inbox_accounts (
      id uuid PRIMARY KEY,
      team_id uuid NOT NULL REFERENCES teams(id),
      provider text NOT NULL,
      email text NOT NULL CHECK (char_length(email) BETWEEN 3 AND 320),
      access_token text NOT NULL CHECK (access_token ~ '^v1\\.'),
      refresh_token text CHECK (refresh_token ~ '^v1\\.'),
      expires_at timestamptz,
      status text NOT NULL CHECK (status IN ('connected', 'disconnected')),
      last_error text,
      connected_by uuid NOT NULL REFERENCES users(id),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL,
      UNIQUE (team_id, email)
    )`
  yield* sql`CREATE INDEX inbox_accounts_team_idx ON inbox_accounts (team_id, created_at DESC, id DESC)`
  yield* sql`
    CREATE OR REPLACE FUNCTION outbox_events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO notification_queue (event_id, team_id, mode, type, data, created_at)
      SELECT e.id, e.team_id, e.mode, e.type, e.data, e.created_at FROM new_events e
      WHERE e.type IN (${sql.unsafe(NOTIFYING_TYPES.map((t) => `'${t}'`).join(", "))});
      RETURN NULL;
    END $$`
})

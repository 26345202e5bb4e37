import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The outbox event types a member is told about, as of this migration (the domain's `NOTIFYING_EVENTS`; the
 * notifications contract checks they agree): 0032's list and `chat_integration.disconnected`.
 */
const NOTIFYING_TYPES = [
  "spend_request.approval_required",
  "transfer.approval_required",
  "checkout_intent.approval_required",
  "crypto_payout.approval_required",
  "webhook_endpoint.disabled",
  "bank_connection.disconnected",
  "chat_integration.disconnected",
  "transfer.created",
  "invoice.paid"
]

/**
 * The chat app's installations (ADR 0034): one per team, found again by the chat workspace an interaction comes
 * from. The bot token is stored sealed (AES-256-GCM text `v1.<iv>.<ciphertext>`), never in plaintext. The notification trigger learns `chat_integration.disconnected`.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE chat_integrations (
      id uuid PRIMARY KEY,
      team_id uuid NOT NULL UNIQUE REFERENCES teams(id),
      workspace_id text NOT NULL CHECK (char_length(workspace_id) BETWEEN 1 AND 200),
      workspace_name text NOT NULL,
      channel_id text NOT NULL CHECK (char_length(channel_id) BETWEEN 1 AND 200),
      channel_name text NOT NULL,
      bot_user_id text NOT NULL,
      bot_token text NOT NULL CHECK (bot_token LIKE 'v1.%'),
      scopes jsonb NOT NULL CHECK (jsonb_typeof(scopes) = 'array'),
      installed_by uuid NOT NULL,
      installed_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX chat_integrations_workspace_idx ON chat_integrations (workspace_id, installed_at DESC)`
  yield* sql`
    CREATE OR REPLACE FUNCTION outbox_events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO notification_queue (event_id, team_id, mode, type, data, created_at)
      SELECT e.id, e.team_id, e.mode, e.type, e.data, e.created_at FROM new_events e
      WHERE e.type IN (${sql.unsafe(NOTIFYING_TYPES.map((t) => `'${t}'`).join(", "))});
      RETURN NULL;
    END $$`
})

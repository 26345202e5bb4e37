import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The outbox event types the chat pass takes, as of this migration (the domain's `CHAT_EVENTS`; a test checks they
 * agree). A later change to the list is a new migration replacing the trigger function.
 */
const CHAT_TYPES = [
  "spend_request.approval_required",
  "transfer.approval_required",
  "checkout_intent.approval_required",
  "crypto_payout.approval_required",
  "approval.step_recorded",
  "spend_request.expired",
  "spend_request.canceled",
  "transfer.expired",
  "transfer.canceled",
  "checkout_intent.expired",
  "checkout_intent.canceled",
  "crypto_payout.expired",
  "crypto_payout.canceled"
]

/**
 * Approvals in chat (ADR 0036). A statement trigger copies each event of a chat type, of a team with a chat
 * integration, into `chat_event_queue` in the inserting transaction; a chat pass turns queued events into
 * `chat_messages` (one per approval) and deletes them from the queue in one transaction. The posting worker claims due
 * messages (`next_attempt_at` is also the lease). `chat_user_links` ties a chat workspace's user to a team member.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE chat_event_queue (
      event_id uuid PRIMARY KEY,
      team_id uuid NOT NULL REFERENCES teams(id),
      mode text NOT NULL,
      type text NOT NULL,
      data jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX chat_event_queue_order_idx ON chat_event_queue (created_at, event_id)`
  yield* sql`
    CREATE FUNCTION outbox_events_to_chat() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO chat_event_queue (event_id, team_id, mode, type, data, created_at)
      SELECT e.id, e.team_id, e.mode, e.type, e.data, e.created_at FROM new_events e
      WHERE e.type IN (${sql.unsafe(CHAT_TYPES.map((t) => `'${t}'`).join(", "))})
        AND EXISTS (SELECT 1 FROM chat_integrations i WHERE i.team_id = e.team_id);
      RETURN NULL;
    END $$`
  yield* sql`
    CREATE TRIGGER outbox_events_to_chat AFTER INSERT ON outbox_events
    REFERENCING NEW TABLE AS new_events
    FOR EACH STATEMENT EXECUTE FUNCTION outbox_events_to_chat()`
  yield* sql`
    CREATE TABLE chat_messages (
      approval_id uuid PRIMARY KEY REFERENCES approvals(id),
      team_id uuid NOT NULL REFERENCES teams(id),
      channel_id text NOT NULL,
      summary jsonb NOT NULL,
      status text NOT NULL CHECK (status IN ('to_post', 'posted', 'to_update', 'closed', 'failed')),
      ts text,
      revision integer NOT NULL CHECK (revision >= 0),
      attempts integer NOT NULL CHECK (attempts >= 0),
      next_attempt_at timestamptz NOT NULL,
      last_error text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL,
      CHECK (status NOT IN ('posted', 'to_update', 'closed') OR ts IS NOT NULL)
    )`
  yield* sql`
    CREATE INDEX chat_messages_due_idx ON chat_messages (next_attempt_at) WHERE status IN ('to_post', 'to_update')`
  yield* sql`CREATE INDEX chat_messages_team_idx ON chat_messages (team_id) WHERE status IN ('to_post', 'posted', 'to_update')`
  yield* sql`
    CREATE TABLE chat_user_links (
      workspace_id text NOT NULL,
      chat_user_id text NOT NULL,
      team_id uuid NOT NULL REFERENCES teams(id),
      user_id uuid NOT NULL REFERENCES users(id),
      email text NOT NULL,
      linked_at timestamptz NOT NULL,
      PRIMARY KEY (workspace_id, chat_user_id, team_id)
    )`
})

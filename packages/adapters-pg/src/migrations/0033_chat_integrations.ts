import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The chat app's installations (ADR 0034): one per team, found again by the chat workspace an interaction comes
 * from. The bot token is stored sealed (AES-256-GCM text `v1.<iv>.<ciphertext>`), never in plaintext.
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
})

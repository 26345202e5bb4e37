import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/** Spending keys, team API keys, team default policies, and spend requests with their approvals. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE agent_keys (
      id uuid PRIMARY KEY,
      kind text NOT NULL CHECK (kind IN ('spending_key', 'team_key')),
      team_id uuid NOT NULL REFERENCES teams(id),
      mode text NOT NULL CHECK (mode IN ('live', 'test')),
      name text NOT NULL,
      display_prefix text NOT NULL,
      secret_hash text NOT NULL UNIQUE,
      account_id uuid REFERENCES ledger_accounts(id),
      policy jsonb,
      scopes jsonb,
      created_by uuid NOT NULL REFERENCES users(id),
      created_at timestamptz NOT NULL,
      revoked_at timestamptz,
      CHECK ((kind = 'spending_key') = (account_id IS NOT NULL AND policy IS NOT NULL)),
      CHECK ((kind = 'team_key') = (scopes IS NOT NULL))
    )`
  yield* sql`CREATE INDEX agent_keys_team_idx ON agent_keys (team_id, kind, created_at DESC)`
  yield* sql`
    CREATE TABLE team_spend_policies (
      team_id uuid PRIMARY KEY REFERENCES teams(id),
      policy jsonb NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`
    CREATE TABLE spend_requests (
      id uuid PRIMARY KEY,
      team_id uuid NOT NULL REFERENCES teams(id),
      mode text NOT NULL CHECK (mode IN ('live', 'test')),
      status text NOT NULL CHECK (status IN ('approved', 'denied', 'pending_approval', 'expired', 'canceled')),
      amount bigint NOT NULL CHECK (amount > 0),
      currency char(3) NOT NULL,
      merchant jsonb NOT NULL,
      purpose text NOT NULL,
      account_id uuid NOT NULL REFERENCES ledger_accounts(id),
      spending_key_id uuid NOT NULL,
      metadata jsonb NOT NULL,
      decision jsonb NOT NULL,
      approval_id uuid UNIQUE,
      approval jsonb,
      approval_expires_at timestamptz,
      ledger_transaction_id uuid REFERENCES ledger_transactions(id),
      hold_transaction_id uuid REFERENCES ledger_transactions(id),
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX spend_requests_team_idx ON spend_requests (team_id, created_at DESC, id DESC)`
  yield* sql`CREATE INDEX spend_requests_key_window_idx ON spend_requests (spending_key_id, created_at) WHERE status IN ('approved', 'pending_approval')`
  yield* sql`CREATE INDEX spend_requests_expiry_idx ON spend_requests (approval_expires_at) WHERE status = 'pending_approval'`
  yield* sql`
    CREATE FUNCTION spend_requests_final_status_guard() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF OLD.status <> 'pending_approval' THEN
        RAISE EXCEPTION 'spend request % is final (%)', OLD.id, OLD.status USING ERRCODE = 'restrict_violation';
      END IF;
      RETURN NEW;
    END $$`
  yield* sql`
    CREATE TRIGGER spend_requests_final_status BEFORE UPDATE ON spend_requests
      FOR EACH ROW EXECUTE FUNCTION spend_requests_final_status_guard()`
})

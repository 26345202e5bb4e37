import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Book transfers between teams (ADR 0014). A transfer row names both teams and their addresses as they were, the
 * sender's account, credential and hold, and its approval; final statuses never change (a trigger), and approvals may
 * now hold transfers.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE transfers (
      id uuid PRIMARY KEY,
      mode text NOT NULL CHECK (mode IN ('live', 'test')),
      status text NOT NULL CHECK (status IN ('pending_approval', 'pending_acceptance', 'completed', 'declined',
                                             'canceled', 'expired', 'denied')),
      amount bigint NOT NULL CHECK (amount > 0),
      currency text NOT NULL CHECK (currency = 'USD'),
      memo text CHECK (memo IS NULL OR char_length(memo) <= 500),
      sender_team_id uuid NOT NULL REFERENCES teams(id),
      sender_address text NOT NULL,
      sender_account_id uuid NOT NULL REFERENCES ledger_accounts(id),
      spending_key_id uuid NOT NULL REFERENCES agent_keys(id),
      recipient_team_id uuid NOT NULL REFERENCES teams(id),
      recipient_address text NOT NULL,
      payment_code text REFERENCES payment_codes(code),
      decision jsonb NOT NULL,
      approval_id uuid UNIQUE REFERENCES approvals(id),
      hold_transaction_id uuid REFERENCES ledger_transactions(id),
      expires_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL,
      CHECK (sender_team_id <> recipient_team_id),
      CHECK ((status = 'pending_acceptance') = (expires_at IS NOT NULL))
    )`
  yield* sql`CREATE INDEX transfers_sender_idx ON transfers (sender_team_id, mode, created_at DESC, id DESC)`
  yield* sql`CREATE INDEX transfers_recipient_idx ON transfers (recipient_team_id, mode, created_at DESC, id DESC)`
  yield* sql`CREATE INDEX transfers_acceptance_due_idx ON transfers (expires_at) WHERE status = 'pending_acceptance'`
  yield* sql`
    CREATE FUNCTION transfers_final_status_guard() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF OLD.status NOT IN ('pending_approval', 'pending_acceptance') THEN
        RAISE EXCEPTION 'transfer % is final (%)', OLD.id, OLD.status USING ERRCODE = 'restrict_violation';
      END IF;
      RETURN NEW;
    END $$`
  yield* sql`
    CREATE TRIGGER transfers_final_status BEFORE UPDATE ON transfers
      FOR EACH ROW EXECUTE FUNCTION transfers_final_status_guard()`
  yield* sql`
    ALTER TABLE approvals
      DROP CONSTRAINT approvals_subject_type_check,
      ADD CONSTRAINT approvals_subject_type_check CHECK (subject_type IN ('spend_request', 'transfer'))`
})

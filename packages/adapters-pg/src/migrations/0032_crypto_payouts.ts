import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The outbox event types a member is told about, as of this migration (the domain's `NOTIFYING_EVENTS`; the
 * notifications contract checks they agree): 0027's list and `crypto_payout.approval_required`.
 */
const NOTIFYING_TYPES = [
  "spend_request.approval_required",
  "transfer.approval_required",
  "checkout_intent.approval_required",
  "crypto_payout.approval_required",
  "webhook_endpoint.disabled",
  "bank_connection.disconnected",
  "transfer.created",
  "invoice.paid"
]

/**
 * Crypto payouts (ADR 0032). A payout row copies its quote (one payout per quote) and names the team's account,
 * credential, hold and approval; `payload` is the rail's signed transfer, stored with `tx_hash` when the payout is
 * submitted (before its first broadcast) and never changed after. Final statuses never change (a trigger); the worker's
 * queue, its reconciliation and the expiry of payouts awaiting approval each have an index; approvals may now hold
 * payouts, and the notification trigger learns `crypto_payout.approval_required`. Budget usage and known merchants are written by the service (`spend_usage`, `known_merchants`), so there
 * is nothing to backfill.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE crypto_payouts (
      id uuid PRIMARY KEY,
      team_id uuid NOT NULL REFERENCES teams(id),
      mode text NOT NULL CHECK (mode IN ('live', 'test')),
      status text NOT NULL CHECK (status IN ('pending_approval', 'pending', 'submitted', 'confirmed', 'failed',
                                             'denied', 'canceled', 'expired')),
      quote_id uuid NOT NULL UNIQUE REFERENCES crypto_quotes(id),
      destination_id uuid NOT NULL REFERENCES crypto_destinations(id),
      network text NOT NULL CHECK (network IN ('ethereum', 'base', 'polygon', 'arbitrum', 'solana')),
      asset text NOT NULL CHECK (asset IN ('USDC', 'USDT')),
      address text NOT NULL,
      amount bigint NOT NULL CHECK (amount > 0),
      currency text NOT NULL CHECK (currency = 'USD'),
      service_fee bigint NOT NULL CHECK (service_fee >= 0),
      network_fee bigint NOT NULL CHECK (network_fee >= 0),
      amount_delivered bigint NOT NULL CHECK (amount_delivered > 0),
      token_amount text NOT NULL CHECK (token_amount ~ '^[1-9][0-9]*$'),
      decimals integer NOT NULL,
      account_id uuid NOT NULL REFERENCES ledger_accounts(id),
      spending_key_id uuid NOT NULL REFERENCES agent_keys(id),
      decision jsonb NOT NULL,
      approval_id uuid UNIQUE REFERENCES approvals(id),
      hold_transaction_id uuid REFERENCES ledger_transactions(id),
      tx_hash text,
      payload text,
      failure_reason text,
      quote_expires_at timestamptz NOT NULL,
      submitted_at timestamptz,
      completed_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL,
      CHECK ((tx_hash IS NULL) = (payload IS NULL) AND (tx_hash IS NULL) = (submitted_at IS NULL)),
      CHECK (status NOT IN ('submitted', 'confirmed') OR tx_hash IS NOT NULL),
      CHECK (status = 'denied' OR hold_transaction_id IS NOT NULL)
    )`
  yield* sql`CREATE INDEX crypto_payouts_team_idx ON crypto_payouts (team_id, mode, created_at DESC, id DESC)`
  yield* sql`CREATE INDEX crypto_payouts_queue_idx ON crypto_payouts (created_at, id) WHERE status = 'pending'`
  yield* sql`CREATE INDEX crypto_payouts_submitted_idx ON crypto_payouts (submitted_at, id) WHERE status = 'submitted'`
  yield* sql`
    CREATE INDEX crypto_payouts_quote_due_idx ON crypto_payouts (quote_expires_at)
      WHERE status = 'pending_approval'`
  yield* sql`
    CREATE FUNCTION crypto_payouts_guard() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF OLD.status NOT IN ('pending_approval', 'pending', 'submitted') THEN
        RAISE EXCEPTION 'crypto payout % is final (%)', OLD.id, OLD.status USING ERRCODE = 'restrict_violation';
      END IF;
      IF OLD.payload IS NOT NULL AND NEW.payload IS DISTINCT FROM OLD.payload
         OR OLD.tx_hash IS NOT NULL AND NEW.tx_hash IS DISTINCT FROM OLD.tx_hash THEN
        RAISE EXCEPTION 'crypto payout % was submitted once already', OLD.id USING ERRCODE = 'restrict_violation';
      END IF;
      RETURN NEW;
    END $$`
  yield* sql`
    CREATE TRIGGER crypto_payouts_final_status BEFORE UPDATE ON crypto_payouts
      FOR EACH ROW EXECUTE FUNCTION crypto_payouts_guard()`
  yield* sql`
    ALTER TABLE approvals
      DROP CONSTRAINT approvals_subject_type_check,
      ADD CONSTRAINT approvals_subject_type_check
        CHECK (subject_type IN ('spend_request', 'transfer', 'checkout_intent', 'crypto_payout'))`
  yield* sql`
    CREATE OR REPLACE FUNCTION outbox_events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO notification_queue (event_id, team_id, mode, type, data, created_at)
      SELECT e.id, e.team_id, e.mode, e.type, e.data, e.created_at FROM new_events e
      WHERE e.type IN (${sql.unsafe(NOTIFYING_TYPES.map((t) => `'${t}'`).join(", "))});
      RETURN NULL;
    END $$`
})

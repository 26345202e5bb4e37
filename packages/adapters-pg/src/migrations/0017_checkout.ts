import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Checkout (ADR 0015): purchase intents decided like spend requests, the single-use card issued for each (its
 * reference and a keyed hash of its number, never the number or CVC), and the issuer's authorizations keyed by its
 * token with the hold each approved one placed. Final intent statuses never change (a trigger), and approvals may now
 * hold intents.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE checkout_intents (
      id uuid PRIMARY KEY,
      team_id uuid NOT NULL REFERENCES teams(id),
      mode text NOT NULL CHECK (mode IN ('live', 'test')),
      status text NOT NULL CHECK (status IN ('pending_approval', 'approved', 'authorized', 'completed', 'expired',
                                             'canceled', 'denied')),
      amount bigint NOT NULL CHECK (amount > 0),
      currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
      merchant_name text NOT NULL CHECK (char_length(merchant_name) BETWEEN 1 AND 500),
      merchant_url text,
      merchant_mcc text CHECK (merchant_mcc ~ '^[0-9]{4}$'),
      merchant_country text CHECK (merchant_country ~ '^[A-Z]{2}$'),
      purpose text NOT NULL CHECK (char_length(purpose) <= 500),
      account_id uuid NOT NULL REFERENCES ledger_accounts(id),
      spending_key_id uuid NOT NULL REFERENCES agent_keys(id),
      decision jsonb NOT NULL,
      approval_id uuid UNIQUE REFERENCES approvals(id),
      card jsonb,
      authorized_amount bigint NOT NULL CHECK (authorized_amount >= 0),
      captured_amount bigint CHECK (captured_amount >= 0),
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX checkout_intents_team_idx ON checkout_intents (team_id, mode, created_at DESC, id DESC)`
  yield* sql`CREATE INDEX checkout_intents_due_idx ON checkout_intents (expires_at) WHERE status = 'approved'`
  yield* sql`
    CREATE FUNCTION checkout_intents_final_status_guard() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF OLD.status IN ('completed', 'expired', 'canceled', 'denied') THEN
        RAISE EXCEPTION 'checkout intent % is final (%)', OLD.id, OLD.status USING ERRCODE = 'restrict_violation';
      END IF;
      RETURN NEW;
    END $$`
  yield* sql`
    CREATE TRIGGER checkout_intents_final_status BEFORE UPDATE ON checkout_intents
      FOR EACH ROW EXECUTE FUNCTION checkout_intents_final_status_guard()`
  yield* sql`
    CREATE TABLE checkout_cards (
      id uuid PRIMARY KEY,
      team_id uuid NOT NULL REFERENCES teams(id),
      mode text NOT NULL CHECK (mode IN ('live', 'test')),
      intent_id uuid NOT NULL UNIQUE REFERENCES checkout_intents(id),
      token text NOT NULL UNIQUE,
      status text NOT NULL CHECK (status IN ('active', 'inactive', 'closed')),
      last4 text NOT NULL CHECK (last4 ~ '^[0-9]{4}$'),
      brand text NOT NULL,
      exp_month smallint NOT NULL CHECK (exp_month BETWEEN 1 AND 12),
      exp_year smallint NOT NULL,
      number_hash text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL
    )`
  yield* sql`
    CREATE TABLE card_authorizations (
      token text PRIMARY KEY,
      card_token text NOT NULL,
      team_id uuid REFERENCES teams(id),
      mode text CHECK (mode IN ('live', 'test')),
      intent_id uuid REFERENCES checkout_intents(id),
      status text NOT NULL CHECK (status IN ('approved', 'declined', 'reversed', 'cleared')),
      decline_reason text CHECK (decline_reason IS NULL OR status = 'declined'),
      amount bigint NOT NULL CHECK (amount > 0),
      currency text NOT NULL,
      merchant_descriptor text NOT NULL,
      merchant_mcc text,
      merchant_country text,
      hold_transaction_id uuid REFERENCES ledger_transactions(id),
      held_amount bigint NOT NULL CHECK (held_amount >= 0),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX card_authorizations_intent_idx ON card_authorizations (intent_id)`
  yield* sql`
    ALTER TABLE approvals
      DROP CONSTRAINT approvals_subject_type_check,
      ADD CONSTRAINT approvals_subject_type_check
        CHECK (subject_type IN ('spend_request', 'transfer', 'checkout_intent'))`
})

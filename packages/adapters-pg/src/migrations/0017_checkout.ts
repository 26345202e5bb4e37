import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Checkout (ADR 0015): purchase intents decided like spend requests, the single-use card issued for each (its
 * reference and a keyed hash of its number, never the number or CVC), and the issuer's authorizations keyed by its
 * token with the hold each approved one placed. Final intent statuses never change (a trigger), and approvals may now
 * hold intents.
 *
 * `lock_card_authorization(token, card_token)` reads and locks what an authorization is decided on, in one call: the
 * token's stored decision (`decided_*`), else the card (`card_*`) and its intent with its approval (`intent_*`),
 * locked intent first, then card, the decision looked up again under those locks (a concurrent delivery of the token
 * queued on them), then the intent's spend account and the team's settlement account of the intent's currency
 * (`account_*`) locked in id order: one row per account. One row of nulls answers a card unknown.
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
  yield* sql`
    CREATE INDEX checkout_intents_due_idx ON checkout_intents (expires_at)
      WHERE status IN ('approved', 'pending_approval')`
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
    CREATE FUNCTION lock_card_authorization(p_token text, p_card_token text) RETURNS TABLE (
      decided_status text, decided_decline_reason text,
      card_id uuid, card_team_id uuid, card_mode text, card_intent_id uuid, card_token text, card_status text,
      card_last4 text, card_brand text, card_exp_month smallint, card_exp_year smallint, card_number_hash text,
      card_created_at timestamptz, card_updated_at timestamptz,
      intent_id uuid, intent_team_id uuid, intent_mode text, intent_status text, intent_amount bigint,
      intent_currency text, intent_merchant jsonb, intent_purpose text, intent_account_id uuid,
      intent_spending_key_id uuid, intent_decision jsonb, intent_card jsonb, intent_authorized_amount bigint,
      intent_captured_amount bigint, intent_expires_at timestamptz, intent_created_at timestamptz,
      intent_updated_at timestamptz, intent_approval_id uuid, intent_approval_status text,
      intent_approval_expires_at timestamptz, intent_approval_decided_at timestamptz, intent_approval_decided_by uuid,
      intent_approval_note text,
      account_id uuid, account_team_id uuid, account_mode text, account_kind text, account_name text,
      account_currency text, account_posted_sum bigint, account_pending_out bigint, account_pending_in bigint,
      account_created_at timestamptz
    ) LANGUAGE plpgsql AS $$
    DECLARE
      v_intent uuid;
      v_spend uuid;
      v_settlement uuid;
    BEGIN
      IF NOT EXISTS (SELECT 1 FROM card_authorizations d WHERE d.token = p_token) THEN
        SELECT c.intent_id INTO v_intent FROM checkout_cards c WHERE c.token = p_card_token;
        IF v_intent IS NOT NULL THEN
          SELECT i.account_id INTO v_spend FROM checkout_intents i WHERE i.id = v_intent FOR UPDATE;
          PERFORM 1 FROM checkout_cards c WHERE c.token = p_card_token FOR UPDATE;
          IF NOT EXISTS (SELECT 1 FROM card_authorizations d WHERE d.token = p_token) THEN
            SELECT s.id INTO v_settlement
            FROM checkout_intents i
            JOIN ledger_accounts s ON s.team_id = i.team_id AND s.mode = i.mode AND s.kind = 'settlement'
              AND s.currency = i.currency
            WHERE i.id = v_intent
            ORDER BY s.created_at, s.id LIMIT 1;
            PERFORM 1 FROM ledger_accounts a WHERE a.id IN (v_spend, v_settlement) ORDER BY a.id FOR UPDATE;
          END IF;
        END IF;
      END IF;

      RETURN QUERY
        SELECT d.status, d.decline_reason,
          c.id, c.team_id, c.mode, c.intent_id, c.token, c.status, c.last4, c.brand, c.exp_month, c.exp_year,
          c.number_hash, c.created_at, c.updated_at,
          i.id, i.team_id, i.mode, i.status, i.amount, i.currency,
          jsonb_build_object('name', i.merchant_name, 'url', i.merchant_url, 'mcc', i.merchant_mcc,
                             'country', i.merchant_country),
          i.purpose, i.account_id, i.spending_key_id, i.decision, i.card, i.authorized_amount, i.captured_amount,
          i.expires_at, i.created_at, i.updated_at, p.id, p.status, p.expires_at, p.decided_at, p.decided_by, p.note,
          a.id, a.team_id, a.mode, a.kind, a.name, a.currency::text, a.posted_sum, a.pending_out, a.pending_in,
          a.created_at
        FROM (VALUES (1)) AS one(n)
        LEFT JOIN card_authorizations d ON d.token = p_token
        LEFT JOIN checkout_cards c ON d.token IS NULL AND c.token = p_card_token
        LEFT JOIN checkout_intents i ON i.id = c.intent_id
        LEFT JOIN approvals p ON p.id = i.approval_id
        LEFT JOIN ledger_accounts a ON c.id IS NOT NULL AND a.id IN (v_spend, v_settlement)
        ORDER BY a.id;
    END $$`
  yield* sql`
    ALTER TABLE approvals
      DROP CONSTRAINT approvals_subject_type_check,
      ADD CONSTRAINT approvals_subject_type_check
        CHECK (subject_type IN ('spend_request', 'transfer', 'checkout_intent'))`
})

import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The outbox event types a member is told about, as of this migration (the domain's `NOTIFYING_EVENTS`; the
 * notifications contract checks they agree): 0034's list and `x402_payment.approval_required`.
 */
const NOTIFYING_TYPES = [
  "spend_request.approval_required",
  "transfer.approval_required",
  "checkout_intent.approval_required",
  "crypto_payout.approval_required",
  "x402_payment.approval_required",
  "webhook_endpoint.disabled",
  "bank_connection.disconnected",
  "chat_integration.disconnected",
  "inbox_account.connection_failed",
  "transfer.created",
  "invoice.paid"
]

/**
 * x402 payments and the teams' wallets (ADR 0062). A wallet is one a team and mode, its key sealed (`SealedSecrets`)
 * and never replaced. A payment names the team's account, credential, hold and approval, keeps the requirement and the
 * resource as the server sent them (a v2 payload repeats them), and, once signed, the authorization and its signature,
 * which never change (a trigger, with final statuses); one authorization nonce a wallet. Approvals may now hold x402
 * payments, and the notification trigger learns `x402_payment.approval_required`. The requirement, the resource and the authorization are `json`, not `jsonb`: a payment header repeats
 * them, and must read the same every time (jsonb would reorder their keys). Budget usage and known merchants are written by the service, so there is nothing to backfill.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE x402_wallets (
      team_id uuid NOT NULL REFERENCES teams(id),
      mode text NOT NULL CHECK (mode IN ('live', 'test')),
      address text NOT NULL CHECK (address ~ '^0x[0-9a-fA-F]{40}$'),
      sealed_key text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (team_id, mode)
    )`
  yield* sql`
    CREATE TABLE x402_payments (
      id uuid PRIMARY KEY,
      team_id uuid NOT NULL REFERENCES teams(id),
      mode text NOT NULL CHECK (mode IN ('live', 'test')),
      status text NOT NULL CHECK (status IN ('pending_approval', 'signed', 'settled', 'denied', 'expired', 'canceled')),
      x402_version integer NOT NULL CHECK (x402_version IN (1, 2)),
      resource_url text NOT NULL,
      merchant text NOT NULL,
      network text NOT NULL,
      chain_id integer NOT NULL,
      asset text NOT NULL,
      asset_symbol text NOT NULL,
      decimals integer NOT NULL,
      domain_name text NOT NULL,
      domain_version text NOT NULL,
      pay_to text NOT NULL,
      token_amount text NOT NULL CHECK (token_amount ~ '^[1-9][0-9]*$'),
      amount bigint NOT NULL CHECK (amount > 0),
      currency text NOT NULL CHECK (currency = 'USD'),
      usd_rate text NOT NULL,
      max_timeout_seconds integer NOT NULL CHECK (max_timeout_seconds > 0),
      accepted json NOT NULL,
      resource json,
      account_id uuid NOT NULL REFERENCES ledger_accounts(id),
      spending_key_id uuid NOT NULL REFERENCES agent_keys(id),
      decision jsonb NOT NULL,
      approval_id uuid UNIQUE REFERENCES approvals(id),
      hold_transaction_id uuid REFERENCES ledger_transactions(id),
      authorization_json json,
      signature text,
      authorizer text GENERATED ALWAYS AS (lower(authorization_json->>'from')) STORED,
      nonce text GENERATED ALWAYS AS (lower(authorization_json->>'nonce')) STORED,
      authorization_expires_at timestamptz,
      settlement_tx_hash text,
      signed_at timestamptz,
      completed_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL,
      CHECK ((authorization_json IS NULL) = (signature IS NULL)
             AND (signature IS NULL) = (signed_at IS NULL)
             AND (signed_at IS NULL) = (authorization_expires_at IS NULL)),
      CHECK (status <> 'settled' OR signature IS NOT NULL),
      CHECK (status = 'denied' OR hold_transaction_id IS NOT NULL),
      UNIQUE (chain_id, authorizer, nonce)
    )`
  yield* sql`CREATE INDEX x402_payments_team_idx ON x402_payments (team_id, mode, created_at DESC, id DESC)`
  yield* sql`
    CREATE INDEX x402_payments_signed_idx ON x402_payments (authorization_expires_at, id) WHERE status = 'signed'`
  yield* sql`
    CREATE FUNCTION x402_payments_guard() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF OLD.status NOT IN ('pending_approval', 'signed') THEN
        RAISE EXCEPTION 'x402 payment % is final (%)', OLD.id, OLD.status USING ERRCODE = 'restrict_violation';
      END IF;
      IF OLD.signature IS NOT NULL AND (NEW.signature IS DISTINCT FROM OLD.signature
                                        OR NEW.authorization_json::text IS DISTINCT FROM OLD.authorization_json::text) THEN
        RAISE EXCEPTION 'x402 payment % was signed once already', OLD.id USING ERRCODE = 'restrict_violation';
      END IF;
      RETURN NEW;
    END $$`
  yield* sql`
    CREATE TRIGGER x402_payments_final_status BEFORE UPDATE ON x402_payments
      FOR EACH ROW EXECUTE FUNCTION x402_payments_guard()`
  yield* sql`
    ALTER TABLE approvals
      DROP CONSTRAINT approvals_subject_type_check,
      ADD CONSTRAINT approvals_subject_type_check
        CHECK (subject_type IN ('spend_request', 'transfer', 'checkout_intent', 'crypto_payout', 'x402_payment'))`
  yield* sql`
    CREATE OR REPLACE FUNCTION outbox_events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO notification_queue (event_id, team_id, mode, type, data, created_at)
      SELECT e.id, e.team_id, e.mode, e.type, e.data, e.created_at FROM new_events e
      WHERE e.type IN (${sql.unsafe(NOTIFYING_TYPES.map((t) => `'${t}'`).join(", "))});
      RETURN NULL;
    END $$`
})

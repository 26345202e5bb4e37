import { Effect } from "effect"
import { SqlClient } from "effect/sql"

const CURRENCY_COLUMNS = [
  ["teams", "base_currency"],
  ["ledger_accounts", "currency"],
  ["ledger_entries", "currency"],
  ["spend_requests", "currency"]
] as const

const TABLES_WITH_CREATED_AT = [
  "users",
  "teams",
  "team_members",
  "ledger_accounts",
  "ledger_transactions",
  "outbox_events",
  "agent_keys",
  "spend_requests",
  "idempotency_responses",
  "oauth_applications",
  "oauth_authorization_codes",
  "oauth_tokens",
  "api_keys",
  "managed_entities",
  "bank_connections",
  "inbox_items",
  "webhook_endpoints",
  "webhook_deliveries"
] as const

/**
 * The ledger's rules in the database: every transaction has entries and its posted and pending entries each sum to
 * zero per currency (checked at commit); an entry carries its transaction's team and mode and its account's team, mode
 * and currency (composite foreign keys, backfilled); one settlement and one external account per team, mode and
 * currency. Also the missing foreign keys (spending keys, a user's current team, a delivery's event), `text`
 * currencies checked as ISO codes, `created_at timestamptz NOT NULL DEFAULT now()` on every table that has one, and
 * indexes for the purges of expired OAuth grants and old webhook deliveries.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (const [table, column] of CURRENCY_COLUMNS) {
    yield* sql.unsafe(
      `ALTER TABLE ${table} ALTER COLUMN ${column} TYPE text,
         ADD CONSTRAINT ${table}_${column}_iso CHECK (${column} ~ '^[A-Z]{3}$')`
    )
  }
  for (const table of TABLES_WITH_CREATED_AT) {
    yield* sql.unsafe(`ALTER TABLE ${table} ALTER COLUMN created_at SET DEFAULT now()`)
  }

  yield* sql`ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_owner_key UNIQUE (id, team_id, mode, currency)`
  yield* sql`ALTER TABLE ledger_transactions ADD CONSTRAINT ledger_transactions_owner_key UNIQUE (id, team_id, mode)`
  yield* sql`ALTER TABLE ledger_entries ADD COLUMN team_id uuid, ADD COLUMN mode text`
  yield* sql`ALTER TABLE ledger_entries DISABLE TRIGGER ledger_entries_append_only`
  yield* sql`
    UPDATE ledger_entries e SET team_id = t.team_id, mode = t.mode
    FROM ledger_transactions t WHERE t.id = e.transaction_id`
  yield* sql`ALTER TABLE ledger_entries ENABLE TRIGGER ledger_entries_append_only`
  yield* sql`
    ALTER TABLE ledger_entries
      ALTER COLUMN team_id SET NOT NULL,
      ALTER COLUMN mode SET NOT NULL,
      DROP CONSTRAINT ledger_entries_transaction_id_fkey,
      DROP CONSTRAINT ledger_entries_account_id_fkey,
      ADD CONSTRAINT ledger_entries_transaction_fkey FOREIGN KEY (transaction_id, team_id, mode)
        REFERENCES ledger_transactions (id, team_id, mode),
      ADD CONSTRAINT ledger_entries_account_fkey FOREIGN KEY (account_id, team_id, mode, currency)
        REFERENCES ledger_accounts (id, team_id, mode, currency)`
  yield* sql`
    ALTER TABLE spend_requests
      DROP CONSTRAINT spend_requests_account_id_fkey,
      ADD CONSTRAINT spend_requests_account_fkey FOREIGN KEY (account_id, team_id, mode, currency)
        REFERENCES ledger_accounts (id, team_id, mode, currency)`
  yield* sql`
    CREATE UNIQUE INDEX ledger_accounts_one_per_currency ON ledger_accounts (team_id, mode, kind, currency)
    WHERE kind IN ('settlement', 'external')`

  yield* sql`
    CREATE FUNCTION ledger_assert_balanced(p_transaction uuid) RETURNS void LANGUAGE plpgsql AS $$
    DECLARE
      v_groups bigint;
      v_unbalanced text;
    BEGIN
      SELECT count(*), min(g.currency) FILTER (WHERE g.total <> 0) INTO v_groups, v_unbalanced
      FROM (SELECT e.currency, sum(e.amount) AS total FROM ledger_entries e
            WHERE e.transaction_id = p_transaction GROUP BY e.currency, e.pending) g;
      IF v_groups = 0 THEN
        RAISE EXCEPTION 'ledger transaction % has no entries', p_transaction USING ERRCODE = 'check_violation';
      END IF;
      IF v_unbalanced IS NOT NULL THEN
        RAISE EXCEPTION 'ledger transaction % does not balance in %', p_transaction, v_unbalanced
          USING ERRCODE = 'check_violation';
      END IF;
    END $$`
  yield* sql`
    CREATE FUNCTION ledger_transactions_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM ledger_assert_balanced(NEW.id);
      RETURN NULL;
    END $$`
  yield* sql`
    CREATE FUNCTION ledger_entries_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM ledger_assert_balanced(NEW.transaction_id);
      RETURN NULL;
    END $$`
  yield* sql`
    CREATE CONSTRAINT TRIGGER ledger_transactions_balanced AFTER INSERT ON ledger_transactions
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_transactions_balanced()`
  yield* sql`
    CREATE CONSTRAINT TRIGGER ledger_entries_balanced AFTER INSERT ON ledger_entries
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_entries_balanced()`

  yield* sql`ALTER TABLE spend_requests ADD CONSTRAINT spend_requests_spending_key_fkey
    FOREIGN KEY (spending_key_id) REFERENCES agent_keys (id)`
  yield* sql`ALTER TABLE spend_usage ADD CONSTRAINT spend_usage_spending_key_fkey
    FOREIGN KEY (spending_key_id) REFERENCES agent_keys (id)`
  yield* sql`ALTER TABLE users ADD CONSTRAINT users_current_team_fkey FOREIGN KEY (current_team_id) REFERENCES teams (id)`
  yield* sql`ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_event_fkey
    FOREIGN KEY (event_id) REFERENCES outbox_events (id)`

  yield* sql`CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (event_id)`
  yield* sql`CREATE INDEX webhook_deliveries_redelivery_idx ON webhook_deliveries (redelivery_of) WHERE redelivery_of IS NOT NULL`
  yield* sql`CREATE INDEX webhook_deliveries_finished_idx ON webhook_deliveries (created_at) WHERE status <> 'pending'`
  yield* sql`CREATE INDEX oauth_authorization_codes_expiry_idx ON oauth_authorization_codes (expires_at)`
  yield* sql`CREATE INDEX oauth_tokens_expiry_idx ON oauth_tokens (expires_at)`
})

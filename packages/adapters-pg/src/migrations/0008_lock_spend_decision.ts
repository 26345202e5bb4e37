import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * `lock_spend_decision`: what a new spend request is decided on, read and locked in one round trip. The order of the
 * locks is fixed by the function's statements, not by a planner: first the spend account (the given one, or the
 * mode's first) and the settlement account of its currency (the oldest, as `findAccountByKind` picks it), in id
 * order; then the credential's day and month totals, created at zero when missing. Each statement reads the latest
 * committed rows, so totals moved by a transaction that held these locks before are seen. No spend account: no rows
 * and no locks; no settlement account: the spend account's row alone.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE FUNCTION lock_spend_decision(
      p_team uuid, p_mode text, p_account uuid, p_key uuid, p_day timestamptz, p_month timestamptz
    ) RETURNS TABLE (
      id uuid, team_id uuid, mode text, kind text, name text, currency text, posted_sum bigint, pending_sum bigint,
      created_at timestamptz, team_policy jsonb, spent_today bigint, spent_this_month bigint
    ) LANGUAGE plpgsql AS $$
    DECLARE
      v_spend uuid;
      v_settlement uuid;
      v_currency text;
      v_day bigint;
      v_month bigint;
    BEGIN
      SELECT a.id, a.currency INTO v_spend, v_currency FROM ledger_accounts a
      WHERE a.team_id = p_team AND a.mode = p_mode AND a.kind = 'spend' AND (p_account IS NULL OR a.id = p_account)
      ORDER BY a.created_at, a.id LIMIT 1;
      IF v_spend IS NULL THEN
        RETURN;
      END IF;
      SELECT a.id INTO v_settlement FROM ledger_accounts a
      WHERE a.team_id = p_team AND a.mode = p_mode AND a.kind = 'settlement' AND a.currency = v_currency
      ORDER BY a.created_at, a.id LIMIT 1;
      PERFORM 1 FROM ledger_accounts a WHERE a.id IN (v_spend, v_settlement) ORDER BY a.id FOR UPDATE;
      WITH totals AS (
        INSERT INTO spend_usage AS u (spending_key_id, period, period_start, amount)
        VALUES (p_key, 'day', p_day, 0), (p_key, 'month', p_month, 0)
        ON CONFLICT (spending_key_id, period, period_start) DO UPDATE SET amount = u.amount
        RETURNING u.period, u.amount
      )
      SELECT max(t.amount) FILTER (WHERE t.period = 'day'), max(t.amount) FILTER (WHERE t.period = 'month')
      INTO v_day, v_month FROM totals t;
      RETURN QUERY
        SELECT a.id, a.team_id, a.mode, a.kind, a.name, a.currency::text, a.posted_sum, a.pending_sum, a.created_at,
               (SELECT p.policy FROM team_spend_policies p WHERE p.team_id = p_team), v_day, v_month
        FROM ledger_accounts a WHERE a.id IN (v_spend, v_settlement);
    END $$`
})

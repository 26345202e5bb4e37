import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Outstanding holds out of and into an account, kept apart (`pending_out`, `pending_in`) instead of one net
 * `pending_sum`, in which a hold into a spend account hid the funds its outgoing holds reserved. Both are backfilled from
 * the pending entries: an entry of a hold reserves (a debit) or awaits (a credit) its amount, one of a hold's
 * resolution gives it back. A spend account keeps `posted_sum - pending_out >= 0`. `lock_spend_decision` (0008) is
 * recreated to return the two sums, its locks taken in the same order.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`DROP FUNCTION lock_spend_decision(uuid, text, uuid, uuid, timestamptz, timestamptz)`
  yield* sql`
    ALTER TABLE ledger_accounts
      ADD COLUMN pending_out bigint NOT NULL DEFAULT 0,
      ADD COLUMN pending_in bigint NOT NULL DEFAULT 0`
  yield* sql`
    UPDATE ledger_accounts a SET pending_out = s.pending_out, pending_in = s.pending_in
    FROM (
      SELECT e.account_id,
             COALESCE(SUM(-e.amount) FILTER (WHERE (e.amount < 0) <> (t.pending_id IS NOT NULL)), 0) AS pending_out,
             COALESCE(SUM(e.amount) FILTER (WHERE (e.amount < 0) = (t.pending_id IS NOT NULL)), 0) AS pending_in
      FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id
      WHERE e.pending
      GROUP BY e.account_id
    ) s
    WHERE a.id = s.account_id`
  yield* sql`
    ALTER TABLE ledger_accounts
      DROP CONSTRAINT ledger_accounts_check,
      DROP COLUMN pending_sum,
      ADD CONSTRAINT ledger_accounts_pending_check CHECK (pending_out >= 0 AND pending_in >= 0),
      ADD CONSTRAINT ledger_accounts_spend_available_check CHECK (kind <> 'spend' OR posted_sum - pending_out >= 0)`
  yield* sql`
    CREATE FUNCTION lock_spend_decision(
      p_team uuid, p_mode text, p_account uuid, p_key uuid, p_day timestamptz, p_month timestamptz
    ) RETURNS TABLE (
      id uuid, team_id uuid, mode text, kind text, name text, currency text, posted_sum bigint, pending_out bigint,
      pending_in bigint, created_at timestamptz, team_policy jsonb, spent_today bigint, spent_this_month bigint
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
        SELECT a.id, a.team_id, a.mode, a.kind, a.name, a.currency, a.posted_sum, a.pending_out, a.pending_in,
               a.created_at, (SELECT p.policy FROM team_spend_policies p WHERE p.team_id = p_team), v_day, v_month
        FROM ledger_accounts a WHERE a.id IN (v_spend, v_settlement);
    END $$`
})

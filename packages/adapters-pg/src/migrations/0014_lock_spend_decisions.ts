import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Spend requests are decided in batches (group commit): `lock_spend_decisions` locks what a whole batch is decided on
 * in one call and replaces the one-request `lock_spend_decision` (0008, 0011). Its input is a JSON array of
 * `{n, team, mode, account, key, day, month}`, one per request; it resolves each request's spend account (`account`,
 * or the mode's first) and the settlement account of that currency, locks every such account in id order, then the
 * budget totals of every credential in both of its windows in (credential, period, start) order, creating them at 0,
 * and returns the locked accounts of request `n` with its team's policy and its credential's totals. Requests without
 * a spend account return no rows and lock nothing. The lock order (accounts by id, then totals) is the one every
 * other writer of these rows follows, so batches of several processes and single transitions never deadlock.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`DROP FUNCTION lock_spend_decision(uuid, text, uuid, uuid, timestamptz, timestamptz)`
  yield* sql`
    CREATE FUNCTION lock_spend_decisions(p_locks jsonb) RETURNS TABLE (
      n int, id uuid, team_id uuid, mode text, kind text, name text, currency text, posted_sum bigint,
      pending_out bigint, pending_in bigint, created_at timestamptz, team_policy jsonb, spent_today bigint,
      spent_this_month bigint
    ) LANGUAGE plpgsql AS $$
    DECLARE
      v_resolved jsonb;
    BEGIN
      SELECT COALESCE(jsonb_agg(jsonb_build_object(
               'n', l.n, 'key', l.key, 'day', l.day, 'month', l.month, 'spend', s.id, 'settlement', t.id)), '[]')
      INTO v_resolved
      FROM jsonb_to_recordset(p_locks)
        AS l(n int, team uuid, mode text, account uuid, key uuid, day timestamptz, month timestamptz)
      JOIN LATERAL (
        SELECT a.id, a.currency FROM ledger_accounts a
        WHERE a.team_id = l.team AND a.mode = l.mode AND a.kind = 'spend' AND (l.account IS NULL OR a.id = l.account)
        ORDER BY a.created_at, a.id LIMIT 1
      ) s ON true
      LEFT JOIN LATERAL (
        SELECT a.id FROM ledger_accounts a
        WHERE a.team_id = l.team AND a.mode = l.mode AND a.kind = 'settlement' AND a.currency = s.currency
        ORDER BY a.created_at, a.id LIMIT 1
      ) t ON true;

      PERFORM 1 FROM ledger_accounts a
      WHERE a.id IN (SELECT (r->>'spend')::uuid FROM jsonb_array_elements(v_resolved) r
                     UNION SELECT (r->>'settlement')::uuid FROM jsonb_array_elements(v_resolved) r)
      ORDER BY a.id FOR UPDATE;

      INSERT INTO spend_usage AS u (spending_key_id, period, period_start, amount)
      SELECT DISTINCT w.key, w.period, w.start, 0::bigint
      FROM jsonb_array_elements(v_resolved) r,
        LATERAL (VALUES ((r->>'key')::uuid, 'day', (r->>'day')::timestamptz),
                        ((r->>'key')::uuid, 'month', (r->>'month')::timestamptz)) AS w(key, period, start)
      ORDER BY 1, 2, 3
      ON CONFLICT (spending_key_id, period, period_start) DO UPDATE SET amount = u.amount;

      RETURN QUERY
        SELECT (r->>'n')::int, a.id, a.team_id, a.mode, a.kind, a.name, a.currency, a.posted_sum, a.pending_out,
               a.pending_in, a.created_at,
               (SELECT p.policy FROM team_spend_policies p WHERE p.team_id = a.team_id),
               (SELECT u.amount FROM spend_usage u
                WHERE u.spending_key_id = (r->>'key')::uuid AND u.period = 'day'
                  AND u.period_start = (r->>'day')::timestamptz),
               (SELECT u.amount FROM spend_usage u
                WHERE u.spending_key_id = (r->>'key')::uuid AND u.period = 'month'
                  AND u.period_start = (r->>'month')::timestamptz)
        FROM jsonb_array_elements(v_resolved) r
        JOIN ledger_accounts a ON a.id IN ((r->>'spend')::uuid, (r->>'settlement')::uuid)
        ORDER BY 1, a.id;
    END $$`
})

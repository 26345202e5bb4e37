import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * `lock_spend_decisions(p_locks, p_lock)` replaces the one of 0018 and answers, with each request's accounts, policy,
 * totals and recent requests, what its governance needs: its team's approval tiers (`approval_tiers`, null without
 * rules), its credential's creator (`key_created_by`) and its team's active spend freezes (`freezes`, a JSON array in
 * the shape of the domain's SpendFreeze, team-wide ones first). They are read, like the rest, by a statement of the
 * function after its locks are taken, so a freeze committed while a decision waited for its locks is seen; a batch of
 * spend decisions makes one round trip for all of it instead of two.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`DROP FUNCTION lock_spend_decisions(jsonb, boolean)`
  yield* sql`
    CREATE FUNCTION lock_spend_decisions(p_locks jsonb, p_lock boolean) RETURNS TABLE (
      n int, id uuid, team_id uuid, mode text, kind text, name text, currency text, posted_sum bigint,
      pending_out bigint, pending_in bigint, created_at timestamptz, team_policy jsonb, spent jsonb,
      category_spent jsonb, recent_requests jsonb, requests_today bigint, approval_tiers jsonb, key_created_by uuid,
      freezes jsonb
    ) LANGUAGE plpgsql AS $$
    DECLARE
      v_resolved jsonb;
    BEGIN
      SELECT COALESCE(jsonb_agg(to_jsonb(l) || jsonb_build_object('spend', s.id, 'settlement', t.id)), '[]')
      INTO v_resolved
      FROM jsonb_to_recordset(p_locks)
        AS l(n int, team uuid, mode text, account uuid, key uuid, day timestamptz, week timestamptz,
             month timestamptz, year timestamptz, category text, at timestamptz, per_hour int, per_day int)
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

      IF p_lock THEN
        PERFORM 1 FROM ledger_accounts a
        WHERE a.id IN (SELECT (r->>'spend')::uuid FROM jsonb_array_elements(v_resolved) r
                       UNION SELECT (r->>'settlement')::uuid FROM jsonb_array_elements(v_resolved) r)
        ORDER BY a.id FOR UPDATE;

        INSERT INTO spend_usage AS u (spending_key_id, category, period, period_start, amount)
        SELECT DISTINCT (r->>'key')::uuid, w.category, w.period, w.period_start, 0::bigint
        FROM jsonb_array_elements(v_resolved) r, spend_usage_totals(r) w
        ORDER BY 1, 2, 3, 4
        ON CONFLICT (spending_key_id, category, period, period_start) DO UPDATE SET amount = u.amount;
      END IF;

      RETURN QUERY
        WITH req AS (
          SELECT r AS lk, (r->>'key')::uuid AS k, (r->>'at')::timestamptz AS t0, (r->>'day')::timestamptz AS d0,
                 tp.policy AS pol
          FROM jsonb_array_elements(v_resolved) r
          LEFT JOIN team_spend_policies tp ON tp.team_id = (r->>'team')::uuid
        ), figures AS (
          SELECT req.lk, req.pol,
            (SELECT COALESCE(jsonb_object_agg(u.period, u.amount), '{}') FROM spend_usage_totals(req.lk) w
             JOIN spend_usage u ON u.spending_key_id = req.k AND u.category = w.category AND u.period = w.period
               AND u.period_start = w.period_start
             WHERE w.category = '') AS f_spent,
            (SELECT COALESCE(jsonb_object_agg(u.period, u.amount), '{}') FROM spend_usage_totals(req.lk) w
             JOIN spend_usage u ON u.spending_key_id = req.k AND u.category = w.category AND u.period = w.period
               AND u.period_start = w.period_start
             WHERE w.category <> '') AS f_category_spent,
            (SELECT COALESCE(jsonb_agg((extract(epoch FROM x.at) * 1000)::bigint ORDER BY x.at DESC), '[]')
             FROM (SELECT rt.at FROM spend_request_times rt
                   WHERE rt.spending_key_id = req.k AND rt.at > req.t0 - interval '1 hour'
                   ORDER BY rt.at DESC
                   LIMIT COALESCE((req.lk->>'per_hour')::int, (req.pol->>'maxRequestsPerHour')::int, 0)) x
            ) AS f_recent,
            (SELECT count(*) FROM (SELECT 1 FROM spend_request_times rt
                   WHERE rt.spending_key_id = req.k AND rt.at >= req.d0 AND rt.at < req.d0 + interval '1 day'
                   LIMIT COALESCE((req.lk->>'per_day')::int, (req.pol->>'maxRequestsPerDay')::int, 0)) x
            ) AS f_today,
            (SELECT r.tiers FROM team_approval_rules r WHERE r.team_id = (req.lk->>'team')::uuid) AS g_tiers,
            (SELECT k.created_by FROM agent_keys k WHERE k.id = req.k) AS g_key_created_by,
            (SELECT COALESCE(jsonb_agg(jsonb_build_object(
               'id', f.id, 'teamId', f.team_id, 'spendingKeyId', f.spending_key_id, 'mode', f.mode,
               'reason', f.reason, 'frozenBy', f.frozen_by,
               'frozenAt', to_char(f.frozen_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
               'liftedBy', NULL, 'liftedAt', NULL) ORDER BY f.spending_key_id NULLS FIRST), '[]'::jsonb)
             FROM spend_freezes f WHERE f.team_id = (req.lk->>'team')::uuid AND f.lifted_at IS NULL) AS g_freezes
          FROM req
        )
        SELECT (f.lk->>'n')::int, a.id, a.team_id, a.mode, a.kind, a.name, a.currency, a.posted_sum, a.pending_out,
               a.pending_in, a.created_at, f.pol, f.f_spent, f.f_category_spent, f.f_recent, f.f_today, f.g_tiers,
               f.g_key_created_by, f.g_freezes
        FROM figures f
        JOIN ledger_accounts a ON a.id IN ((f.lk->>'spend')::uuid, (f.lk->>'settlement')::uuid)
        ORDER BY 1, a.id;
    END $$`
})

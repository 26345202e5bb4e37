import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Budget intervals, category budgets and velocity limits. `spend_usage` keeps a credential's running totals in every
 * interval (day, ISO week, month, year, lifetime, the lifetime row starting at the epoch) and, under a non-empty
 * `category`, the same totals of one category; week, year and lifetime totals are backfilled from the day and month
 * rows (which hold every governed ask), category totals from the spend requests and transfers they count.
 * `spend_request_times` holds when each credential's counted requests (every outcome but denied) were made, for the
 * rolling-hour and per-day velocity limits; it is backfilled from the asks since the start of yesterday (UTC).
 *
 * `lock_spend_decisions(p_locks, p_lock)` replaces the one of 0014: its locks also carry `week`, `year`, `category`,
 * `at` (the decision's moment) and the credential's own `per_hour` / `per_day` limits. It locks the accounts in id
 * order, then every total of each lock (`spend_usage_totals`) in (credential, category, period, start) order, creating
 * them at 0, and answers per request its accounts, its team's policy, its totals (`spent`, `category_spent`: objects
 * keyed by period), the times of its credential's most recent requests in the hour before `at` (epoch millis, most
 * recent first, at most the effective hourly limit: the credential's, else the team's; none without one) and its
 * requests in the UTC day of `day` (counted up to the effective daily limit). With `p_lock` false it locks and writes
 * nothing and reads missing totals as absent: what a dry run decides on.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE spend_usage ADD COLUMN category text NOT NULL DEFAULT ''`
  yield* sql`ALTER TABLE spend_usage DROP CONSTRAINT spend_usage_pkey`
  yield* sql`ALTER TABLE spend_usage DROP CONSTRAINT spend_usage_period_check`
  yield* sql`
    ALTER TABLE spend_usage ADD CONSTRAINT spend_usage_period_check
      CHECK (period IN ('day', 'week', 'month', 'year', 'lifetime'))`
  yield* sql`ALTER TABLE spend_usage ADD PRIMARY KEY (spending_key_id, category, period, period_start)`
  yield* sql`
    INSERT INTO spend_usage (spending_key_id, category, period, period_start, amount)
    SELECT spending_key_id, '', 'week', date_trunc('week', period_start AT TIME ZONE 'UTC') AT TIME ZONE 'UTC',
           SUM(amount)
    FROM spend_usage WHERE category = '' AND period = 'day' GROUP BY 1, 4
    UNION ALL
    SELECT spending_key_id, '', 'year', date_trunc('year', period_start AT TIME ZONE 'UTC') AT TIME ZONE 'UTC',
           SUM(amount)
    FROM spend_usage WHERE category = '' AND period = 'month' GROUP BY 1, 4
    UNION ALL
    SELECT spending_key_id, '', 'lifetime', 'epoch'::timestamptz, SUM(amount)
    FROM spend_usage WHERE category = '' AND period = 'month' GROUP BY 1`
  yield* sql`
    INSERT INTO spend_usage (spending_key_id, category, period, period_start, amount)
    SELECT c.spending_key_id, c.category, p.period, p.start, SUM(c.amount)
    FROM (
      SELECT spending_key_id, lower(btrim(merchant->>'category')) AS category, created_at, amount
      FROM spend_requests
      WHERE status IN ('approved', 'pending_approval') AND btrim(COALESCE(merchant->>'category', '')) <> ''
      UNION ALL
      SELECT spending_key_id, 'book_transfer', created_at, amount
      FROM transfers WHERE status IN ('pending_approval', 'pending_acceptance', 'completed')
    ) c,
    LATERAL (VALUES
      ('day', date_trunc('day', c.created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'),
      ('week', date_trunc('week', c.created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'),
      ('month', date_trunc('month', c.created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'),
      ('year', date_trunc('year', c.created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'),
      ('lifetime', 'epoch'::timestamptz)
    ) AS p(period, start)
    GROUP BY 1, 2, 3, 4`

  yield* sql`
    CREATE TABLE spend_request_times (
      spending_key_id uuid NOT NULL,
      at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX spend_request_times_key_at_idx ON spend_request_times (spending_key_id, at DESC)`
  yield* sql`
    INSERT INTO spend_request_times (spending_key_id, at)
    SELECT spending_key_id, created_at FROM (
      SELECT spending_key_id, created_at, decision FROM spend_requests
      UNION ALL SELECT spending_key_id, created_at, decision FROM transfers
      UNION ALL SELECT spending_key_id, created_at, decision FROM checkout_intents
    ) asks
    WHERE decision->>'outcome' IS DISTINCT FROM 'denied'
      AND created_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - interval '1 day'`

  yield* sql`
    CREATE FUNCTION spend_usage_totals(p_lock jsonb) RETURNS TABLE (category text, period text, period_start timestamptz)
    LANGUAGE sql STABLE AS $$
      SELECT c.category, p.period, p.start
      FROM (VALUES (''), (p_lock->>'category')) AS c(category),
        (VALUES ('day', (p_lock->>'day')::timestamptz), ('week', (p_lock->>'week')::timestamptz),
                ('month', (p_lock->>'month')::timestamptz), ('year', (p_lock->>'year')::timestamptz),
                ('lifetime', 'epoch'::timestamptz)) AS p(period, start)
      WHERE c.category IS NOT NULL
    $$`

  yield* sql`DROP FUNCTION lock_spend_decisions(jsonb)`
  yield* sql`
    CREATE FUNCTION lock_spend_decisions(p_locks jsonb, p_lock boolean) RETURNS TABLE (
      n int, id uuid, team_id uuid, mode text, kind text, name text, currency text, posted_sum bigint,
      pending_out bigint, pending_in bigint, created_at timestamptz, team_policy jsonb, spent jsonb,
      category_spent jsonb, recent_requests jsonb, requests_today bigint
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
            ) AS f_today
          FROM req
        )
        SELECT (f.lk->>'n')::int, a.id, a.team_id, a.mode, a.kind, a.name, a.currency, a.posted_sum, a.pending_out,
               a.pending_in, a.created_at, f.pol, f.f_spent, f.f_category_spent, f.f_recent, f.f_today
        FROM figures f
        JOIN ledger_accounts a ON a.id IN ((f.lk->>'spend')::uuid, (f.lk->>'settlement')::uuid)
        ORDER BY 1, a.id;
    END $$`
})

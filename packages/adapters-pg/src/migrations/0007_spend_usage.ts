import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Running totals of approved and pending spend per credential and UTC day / month, so a budget check reads two rows
 * instead of summing the day's requests. Backfilled from the requests already stored.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE spend_usage (
      spending_key_id uuid NOT NULL,
      period text NOT NULL CHECK (period IN ('day', 'month')),
      period_start timestamptz NOT NULL,
      amount bigint NOT NULL CHECK (amount >= 0),
      PRIMARY KEY (spending_key_id, period, period_start)
    )`
  yield* sql`
    INSERT INTO spend_usage (spending_key_id, period, period_start, amount)
    SELECT spending_key_id, 'day', date_trunc('day', created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', SUM(amount)
    FROM spend_requests WHERE status IN ('approved', 'pending_approval') GROUP BY 1, 3
    UNION ALL
    SELECT spending_key_id, 'month', date_trunc('month', created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', SUM(amount)
    FROM spend_requests WHERE status IN ('approved', 'pending_approval') GROUP BY 1, 3`
  yield* sql`DROP INDEX spend_requests_key_window_idx`
})

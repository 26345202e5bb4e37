import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Payment codes held by open transfers (ADR 0040). A code names the one open transfer made with it
 * (`reserved_by_transfer_id`), never once used. Before the column is filled, transfers an acceptance left `completed`
 * without paying (issue 42: its code check failed after its status changed, and the change was kept) go back to
 * `pending_acceptance`, due at once: they credited no one and their hold is unresolved, so the transfer expiry releases
 * the hold, gives back the budget and tells both teams, exactly as for any unaccepted transfer. Then every unused code
 * is held by its oldest open transfer; a younger one sharing it is refused when accepted while the code is held or used.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    ALTER TABLE payment_codes
      ADD COLUMN reserved_by_transfer_id uuid,
      ADD CHECK (used_at IS NULL OR reserved_by_transfer_id IS NULL)`
  // The guard keeps final statuses final; this one repair, in the migrations' transaction, is the only exception.
  yield* sql`ALTER TABLE transfers DISABLE TRIGGER transfers_final_status`
  yield* sql`
    UPDATE transfers t SET status = 'pending_acceptance', expires_at = now(), updated_at = now()
    WHERE t.status = 'completed'
      AND t.hold_transaction_id IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM ledger_transactions r WHERE r.pending_id = t.hold_transaction_id)
      AND NOT EXISTS (
        SELECT 1 FROM ledger_transactions c
        WHERE c.team_id = t.recipient_team_id AND c.mode = t.mode AND c.code = 'transfer' AND c.reference = t.id::text
      )`
  yield* sql`ALTER TABLE transfers ENABLE TRIGGER transfers_final_status`
  yield* sql`
    UPDATE payment_codes c SET reserved_by_transfer_id = o.id
    FROM (
      SELECT DISTINCT ON (payment_code) payment_code, id FROM transfers
      WHERE payment_code IS NOT NULL AND status IN ('pending_approval', 'pending_acceptance')
      ORDER BY payment_code, created_at, id
    ) o
    WHERE c.code = o.payment_code AND c.used_at IS NULL`
})

import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Merchants each team has paid, by normalised name, per mode: what `reviewNewMerchants` checks. Filled from what was
 * paid before: posted spend requests, completed transfers (the recipient's address) and completed checkout intents.
 * The backfill normalises in SQL as `normalizeMerchantName` does in TypeScript (NFKC, whitespace runs made one space,
 * trimmed, lower-cased); where the two disagree on an exotic name, the merchant is seen as new, which only asks for
 * one more approval.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE known_merchants (
      team_id uuid NOT NULL REFERENCES teams(id),
      mode text NOT NULL CHECK (mode IN ('live', 'test')),
      merchant text NOT NULL CHECK (merchant <> ''),
      first_paid_at timestamptz NOT NULL,
      PRIMARY KEY (team_id, mode, merchant)
    )`
  yield* sql`
    INSERT INTO known_merchants (team_id, mode, merchant, first_paid_at)
    SELECT team_id, mode, merchant, min(paid_at)
    FROM (
      SELECT team_id, mode, lower(btrim(regexp_replace(normalize(merchant->>'name', NFKC), '\\s+', ' ', 'g'))) AS merchant,
             updated_at AS paid_at
      FROM spend_requests WHERE status = 'approved' AND ledger_transaction_id IS NOT NULL
      UNION ALL
      SELECT sender_team_id, mode, lower(btrim(regexp_replace(normalize(recipient_address, NFKC), '\\s+', ' ', 'g'))),
             updated_at
      FROM transfers WHERE status = 'completed'
      UNION ALL
      SELECT team_id, mode, lower(btrim(regexp_replace(normalize(merchant_name, NFKC), '\\s+', ' ', 'g'))), updated_at
      FROM checkout_intents WHERE status = 'completed'
    ) paid
    WHERE merchant <> ''
    GROUP BY team_id, mode, merchant`
})

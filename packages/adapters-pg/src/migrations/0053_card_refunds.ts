import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * What the card issuer refunded of a cleared authorization (ADR 0059): each refund posts back to the spend account
 * (ledger code `card_refund`, reference the issuer's refund id), and together they never exceed what was cleared.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    ALTER TABLE card_authorizations
      ADD COLUMN refunded_amount bigint NOT NULL DEFAULT 0 CHECK (refunded_amount >= 0),
      ADD CONSTRAINT card_authorizations_refunded_cleared CHECK (refunded_amount = 0 OR status = 'cleared')`
})

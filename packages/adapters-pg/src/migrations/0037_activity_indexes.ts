import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Indexes of the treasury's activity views: a team's items of one spending key newest first (the `keyId` filter), and
 * a checkout intent's card-authorization postings by their authorization's token (a later hold's reference is
 * `token:suffix`).
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX spend_requests_team_key_idx
    ON spend_requests (team_id, spending_key_id, created_at DESC, id DESC)`
  yield* sql`CREATE INDEX transfers_sender_key_idx
    ON transfers (sender_team_id, spending_key_id, created_at DESC, id DESC)`
  yield* sql`CREATE INDEX checkout_intents_team_key_idx
    ON checkout_intents (team_id, spending_key_id, created_at DESC, id DESC)`
  yield* sql`CREATE INDEX ledger_transactions_card_token_idx
    ON ledger_transactions (team_id, mode, split_part(reference, ':', 1))
    WHERE code = 'card_authorization' AND kind IN ('posted', 'pending')`
})

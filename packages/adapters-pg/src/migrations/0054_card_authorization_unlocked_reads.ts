import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Card authorizations decided on an unlocked reading and written only if it still holds (ADR 0060).
 * `lock_card_authorization`, which read under locks inside a transaction, goes; `card_approval_holds(token,
 * card_token, amount)` takes, in one call, the locks an approval's write needs in the order every change of them
 * follows (the card's intent, the card, then the intent's spend account and the team's settlement account of its
 * currency in id order) and answers whether the approval may still be written: the token has no decision, the intent
 * is `approved`, the card `active`, and the spend account's available balance covers `amount`. The locks last until
 * the statement that called it commits.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`DROP FUNCTION lock_card_authorization(text, text)`
  yield* sql`
    CREATE FUNCTION card_approval_holds(p_token text, p_card_token text, p_amount bigint) RETURNS boolean
    LANGUAGE plpgsql AS $$
    DECLARE
      v_intent checkout_intents%ROWTYPE;
      v_card_status text;
      v_settlement uuid;
      v_available bigint;
    BEGIN
      SELECT i.* INTO v_intent
      FROM checkout_intents i JOIN checkout_cards c ON c.intent_id = i.id
      WHERE c.token = p_card_token
      FOR UPDATE OF i;
      IF NOT FOUND OR v_intent.status <> 'approved' THEN
        RETURN false;
      END IF;
      SELECT c.status INTO v_card_status FROM checkout_cards c WHERE c.token = p_card_token FOR UPDATE;
      IF v_card_status <> 'active' OR EXISTS (SELECT 1 FROM card_authorizations d WHERE d.token = p_token) THEN
        RETURN false;
      END IF;
      SELECT s.id INTO v_settlement
      FROM ledger_accounts s
      WHERE s.team_id = v_intent.team_id AND s.mode = v_intent.mode AND s.kind = 'settlement'
        AND s.currency = v_intent.currency
      ORDER BY s.created_at, s.id LIMIT 1;
      PERFORM 1 FROM ledger_accounts a WHERE a.id IN (v_intent.account_id, v_settlement) ORDER BY a.id FOR UPDATE;
      SELECT a.posted_sum - a.pending_out INTO v_available FROM ledger_accounts a WHERE a.id = v_intent.account_id;
      RETURN v_available >= p_amount;
    END $$`
})

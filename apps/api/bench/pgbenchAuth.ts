/**
 * The database's share of a card authorization: `pgbench` (a C client, prepared statements) running an
 * authorization's two statements (ADR 0060) at the auth-stream's open-loop rate, against approved intents with cards
 * made for it by SQL. The reading is the service's own statement; the write is the shape of the one the service
 * builds (the authorization gated on `card_approval_holds`, its ledger hold with two entries and both balances, the
 * intent's move to `authorized`, the event), written out by hand. Its p50 and p99 are what the service's open loop
 * is compared with.
 */

import { CARD_DECISION_INPUTS_SQL } from "@svc/adapters-pg"
import type { Figures } from "./figures.ts"
import { pgbench } from "./pgbench.ts"
import { onDatabase } from "./service.ts"

/** The cards made per authorization sent: a random pick meets a card used before about once in 40. */
const CARDS_PER_AUTHORIZATION = 20

/**
 * Approved intents with an active card each (`pgbench_card_<n>`, n from 1 to `count`), copied from the intents the
 * service made, so that they spread over the same agents' accounts.
 */
const makeCards = (url: string, count: number) =>
  onDatabase(
    url,
    (sql) => sql`
      WITH template AS (
        SELECT i.*, row_number() OVER (ORDER BY i.id) AS k, count(*) OVER () AS templates
        FROM (SELECT DISTINCT ON (account_id) * FROM checkout_intents ORDER BY account_id, id) i
      ), made AS (
        INSERT INTO checkout_intents
        SELECT (jsonb_populate_record(NULL::checkout_intents, to_jsonb(t) || jsonb_build_object(
          'id', gen_random_uuid(), 'status', 'approved', 'approval_id', NULL, 'card', NULL, 'authorized_amount', 0,
          'captured_amount', NULL, 'expires_at', now() + interval '1 day'))).*
        FROM generate_series(1, ${count}) n JOIN template t ON t.k = 1 + n % t.templates
        RETURNING id, team_id, mode
      ), numbered AS (SELECT m.*, row_number() OVER () AS n FROM made m)
      INSERT INTO checkout_cards (id, team_id, mode, intent_id, token, status, last4, brand, exp_month, exp_year,
                                  number_hash, updated_at)
      SELECT gen_random_uuid(), team_id, mode, id, 'pgbench_card_' || n, 'active', '4242', 'visa', 12, 2030,
             md5(n::text), now()
      FROM numbered`
  )

/**
 * The service's reading with pgbench's variables for its parameters. pgbench takes every `:name` for a variable, even
 * inside a string, so the time format's colons become dots: the same work, another separator.
 */
const reading = CARD_DECISION_INPUTS_SQL.replaceAll("HH24:MI:SS", "HH24.MI.SS")
  .replace("$1", "'pgbench_' || :client_id::text || '_' || :k::text")
  .replace("$2", "'pgbench_card_' || :n::text")

/** One authorization's statements in pgbench's language: the reading, then the gated write. */
const script = (cards: number) => `\\set n random(1, ${cards})
\\set k random(1, 1000000000)
${reading};
WITH ids AS (
  SELECT 'pgbench_' || :client_id::text || '_' || :k::text AS token, 'pgbench_card_' || :n::text AS card_token,
         gen_random_uuid() AS hold_id, now() AS at
), card_authorization AS (
  INSERT INTO card_authorizations (token, card_token, team_id, mode, intent_id, status, amount, currency,
                                   merchant_descriptor, merchant_mcc, merchant_country, hold_transaction_id,
                                   held_amount, created_at, updated_at)
  SELECT ids.token, ids.card_token, i.team_id, i.mode, i.id, 'approved', i.amount, i.currency, 'BENCH STORE', '5734',
         'US', ids.hold_id, i.amount, ids.at, ids.at
  FROM ids JOIN checkout_cards c ON c.token = ids.card_token JOIN checkout_intents i ON i.id = c.intent_id
  WHERE card_approval_holds(ids.token, ids.card_token, i.amount)
  ON CONFLICT (token) DO NOTHING
  RETURNING token, intent_id, team_id, mode, hold_transaction_id, held_amount, currency
), accounts AS (
  SELECT a.hold_transaction_id, a.team_id, a.mode, a.currency, i.account_id AS spend, s.id AS settlement,
         a.held_amount AS amount
  FROM card_authorization a JOIN checkout_intents i ON i.id = a.intent_id
  JOIN ledger_accounts s ON s.team_id = a.team_id AND s.mode = a.mode AND s.kind = 'settlement'
    AND s.currency = a.currency
), ledger_tx AS (
  INSERT INTO ledger_transactions (id, team_id, mode, kind, code, reference, pending_id, created_at)
  SELECT a.hold_transaction_id, a.team_id, a.mode, 'pending', 'card_authorization', ids.token, NULL, ids.at
  FROM accounts a, ids
  RETURNING id
), entries AS (
  INSERT INTO ledger_entries (transaction_id, team_id, mode, account_id, amount, currency, pending)
  SELECT a.hold_transaction_id, a.team_id, a.mode, e.account_id, e.amount, a.currency, true
  FROM accounts a JOIN ledger_tx t ON t.id = a.hold_transaction_id
  CROSS JOIN LATERAL (VALUES (a.spend, -a.amount), (a.settlement, a.amount)) AS e(account_id, amount)
), moved AS (
  UPDATE ledger_accounts l
  SET pending_out = l.pending_out + CASE WHEN l.id = a.spend THEN a.amount ELSE 0 END,
      pending_in = l.pending_in + CASE WHEN l.id = a.settlement THEN a.amount ELSE 0 END
  FROM accounts a WHERE l.id IN (a.spend, a.settlement)
), intent_authorized AS (
  UPDATE checkout_intents i SET status = 'authorized', authorized_amount = a.held_amount, updated_at = ids.at
  FROM card_authorization a, ids WHERE i.id = a.intent_id AND i.status = 'approved'
), outbox AS (
  INSERT INTO outbox_events (id, team_id, mode, type, data, created_at)
  SELECT gen_random_uuid(), a.team_id, a.mode, 'checkout_intent.authorized',
         jsonb_build_object('id', a.intent_id, 'status', 'authorized', 'authorizedAmount', a.held_amount), ids.at
  FROM card_authorization a, ids
)
SELECT EXISTS (SELECT 1 FROM card_authorization) AS inserted;
`

/**
 * `pgbench` at `ratePerSecond` for `seconds` with 8 clients; latencies counted from each transaction's scheduled start.
 */
export const pgbenchAuthorizations = async (
  name: string,
  url: string,
  ratePerSecond: number,
  seconds: number
): Promise<Figures> => {
  const cards = ratePerSecond * seconds * CARDS_PER_AUTHORIZATION
  await makeCards(url, cards)
  return pgbench({ name, url, script: script(cards), clients: 8, seconds, ratePerSecond })
}

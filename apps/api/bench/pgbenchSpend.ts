/**
 * The least SQL of one auto-approved spend request, run by `pgbench` (a C client, prepared statements) at the closed
 * loop's concurrency: one transaction writing what a spend request must leave behind (the ledger transaction, its
 * two entries and both balances, the request, the key's usage for the day and the month, the two events, the stored
 * answer), with no credential, rate-limit, idempotency or budget reads before it. The service's spend throughput is
 * reported as a ratio to this figure from the same run, so a reader compares a ratio rather than an absolute taken
 * on a noisy machine.
 */

import { Effect } from "effect"
import type { AgentIds } from "./directSql.ts"
import type { Figures } from "./figures.ts"
import { pgbench } from "./pgbench.ts"
import { onDatabase } from "./service.ts"

const script = (agents: number) => `\\set n random(1, ${agents})
BEGIN;
WITH agent AS (
  SELECT * FROM pgbench_spend_agents WHERE n = :n
), ids AS (
  SELECT gen_random_uuid() AS id, gen_random_uuid() AS tx, now() AS at
), ledger_tx AS (
  INSERT INTO ledger_transactions (id, team_id, mode, kind, code, reference, created_at)
  SELECT ids.tx, agent.team_id, 'test', 'posted', 'spend_request', ids.id::text, ids.at FROM agent, ids
  RETURNING id
), ledger_inserted AS (
  INSERT INTO ledger_entries (transaction_id, team_id, mode, account_id, amount, currency, pending)
  SELECT ledger_tx.id, agent.team_id, 'test', v.account_id, v.amount, 'USD', false
  FROM ledger_tx, agent, LATERAL (VALUES (agent.account_id, -1), (agent.settlement_id, 1)) AS v(account_id, amount)
  RETURNING account_id, amount
), ledger_moved AS (
  UPDATE ledger_accounts l SET posted_sum = l.posted_sum + e.amount FROM ledger_inserted e WHERE l.id = e.account_id
), spend_request AS (
  INSERT INTO spend_requests (id, team_id, mode, status, amount, currency, merchant, purpose, account_id,
    spending_key_id, metadata, decision, ledger_transaction_id, created_at, updated_at)
  SELECT ids.id, agent.team_id, 'test', 'approved', 1, 'USD', '{"name":"m"}'::jsonb, 'p', agent.account_id,
    agent.key_id, '{}'::jsonb, '{"outcome":"approved","reasons":[]}'::jsonb, ids.tx, ids.at, ids.at
  FROM agent, ids
), spend_usage_moved AS (
  INSERT INTO spend_usage AS u (spending_key_id, category, period, period_start, amount)
  SELECT agent.key_id, '', p.period, date_trunc(p.period, ids.at), 1
  FROM agent, ids, (VALUES ('day'), ('month')) AS p(period)
  ON CONFLICT (spending_key_id, category, period, period_start) DO UPDATE SET amount = u.amount + EXCLUDED.amount
), outbox AS (
  INSERT INTO outbox_events (id, team_id, mode, type, data, created_at)
  SELECT gen_random_uuid(), agent.team_id, 'test', t.type, '{}'::jsonb, ids.at
  FROM agent, ids, (VALUES ('spend_request.created'), ('spend_request.approved')) AS t(type)
)
INSERT INTO idempotency_responses (team_id, mode, credential_id, method, path, key, fingerprint, status, headers,
  body, created_at)
SELECT agent.team_id, 'test', agent.key_id, 'POST', '/v1/spend-requests', ids.id::text, ids.id::text, 201,
  '{}'::jsonb, decode(repeat('00', 600), 'hex'), ids.at
FROM agent, ids;
COMMIT;
`

/** pgbench with `clients` clients for `seconds`, as fast as it goes, over the given agents' accounts. */
export const pgbenchSpendRequests = async (
  name: string,
  url: string,
  agents: ReadonlyArray<AgentIds>,
  clients: number,
  seconds: number
): Promise<Figures> => {
  await onDatabase(url, (sql) =>
    Effect.gen(function* () {
      yield* sql`CREATE TABLE pgbench_spend_agents (
                   n int PRIMARY KEY, team_id uuid, key_id uuid, account_id uuid, settlement_id uuid)`
      const [first, ...rest] = agents.map((agent, i) => ({
        n: i + 1,
        team_id: agent.teamId,
        key_id: agent.keyId,
        account_id: agent.accountId,
        settlement_id: agent.settlementId
      }))
      if (first !== undefined) yield* sql`INSERT INTO pgbench_spend_agents ${sql.insert([first, ...rest])}`
    })
  )
  return pgbench({ name, url, script: script(agents.length), clients, seconds })
}

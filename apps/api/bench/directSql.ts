/**
 * The database work of auto-approved spend requests issued directly over SQL, with no service in between, by
 * CONNECTIONS clients in a closed loop: the reference the service's throughput is compared with.
 */

import { clientForUrl } from "@svc/adapters-pg"
import { Effect, Redacted, type Scope } from "effect"
import { SqlClient } from "effect/sql"
import { type Figures, quantiles } from "./figures.ts"
import { CONNECTIONS, DURATION_SECONDS, POOL_SIZE } from "./settings.ts"

export interface AgentIds {
  readonly teamId: string
  readonly keyId: string
  readonly accountId: string
  readonly settlementId: string
}

let turn = 0

/** The next of `count` agents in turn: service and direct-SQL scenarios spread requests over agents alike. */
export const nextTurn = (count: number) => {
  turn = (turn + 1) % count
  return turn
}

/**
 * The statements a spend request runs before its transaction, as the service runs them: the rate-limit bucket, the
 * credential and the idempotency look-up of `key`.
 */
export const beforeTransaction = (sql: SqlClient.SqlClient, ids: AgentIds, key: string) =>
  Effect.gen(function* () {
    const scope = sql`team_id = ${ids.teamId} AND mode = 'test' AND credential_id = ${ids.keyId}
      AND method = 'POST' AND path = '/v1/spend-requests' AND key = ${key}`
    yield* sql`INSERT INTO rate_limit_buckets AS b (key, tokens, allowed, updated_at)
               VALUES (${ids.keyId}, 1e9, true, clock_timestamp())
               ON CONFLICT (key) DO UPDATE SET tokens = b.tokens - 1, allowed = true, updated_at = clock_timestamp()
               RETURNING tokens, allowed`
    yield* sql`SELECT * FROM agent_keys WHERE secret_hash = ${key} AND revoked_at IS NULL`
    yield* sql`SELECT fingerprint FROM idempotency_responses WHERE ${scope}`
  })

/** One spend request's statements, its decision and writes in a transaction of its own. */
const perRequest = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return (ids: AgentIds) =>
    Effect.gen(function* () {
      const id = crypto.randomUUID()
      const txId = crypto.randomUUID()
      const now = new Date().toISOString()
      yield* beforeTransaction(sql, ids, id)
      yield* sql.withTransaction(
        Effect.gen(function* () {
          yield* sql`SELECT pg_try_advisory_xact_lock(hashtextextended(${id}, 0))`
          const day = new Date(`${now.slice(0, 10)}T00:00:00.000Z`).toISOString()
          const month = new Date(`${now.slice(0, 7)}-01T00:00:00.000Z`).toISOString()
          const week = new Date(Date.parse(day) - ((new Date(day).getUTCDay() + 6) % 7) * 86_400_000).toISOString()
          const year = new Date(`${now.slice(0, 4)}-01-01T00:00:00.000Z`).toISOString()
          yield* sql`SELECT * FROM lock_spend_decisions(${JSON.stringify([
            {
              n: 0,
              team: ids.teamId,
              mode: "test",
              account: ids.accountId,
              key: ids.keyId,
              day,
              week,
              month,
              year,
              category: null,
              at: now,
              per_hour: null,
              per_day: null
            }
          ])}::jsonb, true)`
          yield* sql`WITH ledger_tx AS (
                       INSERT INTO ledger_transactions (id, team_id, mode, kind, code, reference, created_at)
                       VALUES (${txId}, ${ids.teamId}, 'test', 'posted', 'spend_request', ${id}, ${now}) RETURNING id
                     ), ledger_inserted AS (
                       INSERT INTO ledger_entries (transaction_id, team_id, mode, account_id, amount, currency, pending)
                       SELECT ledger_tx.id, ${ids.teamId}, 'test', a, amount, 'USD', false FROM ledger_tx,
                         (VALUES (${ids.accountId}::uuid, -1), (${ids.settlementId}::uuid, 1)) AS v(a, amount)
                       RETURNING account_id, amount
                     ), ledger_moved AS (
                       UPDATE ledger_accounts l SET posted_sum = l.posted_sum + e.amount
                       FROM ledger_inserted e WHERE l.id = e.account_id
                     ), spend_request AS (
                       INSERT INTO spend_requests (id, team_id, mode, status, amount, currency, merchant, purpose, account_id,
                         spending_key_id, metadata, decision, ledger_transaction_id, created_at, updated_at)
                       VALUES (${id}, ${ids.teamId}, 'test', 'approved', 1, 'USD', '{"name":"m"}'::jsonb, 'p', ${ids.accountId},
                         ${ids.keyId}, '{}'::jsonb, '{"outcome":"approved","reasons":[]}'::jsonb, ${txId}, ${now}, ${now})
                     ), spend_usage_moved AS (
                       INSERT INTO spend_usage AS u (spending_key_id, category, period, period_start, amount)
                       VALUES (${ids.keyId}, '', 'day', date_trunc('day', ${now}::timestamptz), 1),
                              (${ids.keyId}, '', 'month', date_trunc('month', ${now}::timestamptz), 1)
                       ON CONFLICT (spending_key_id, category, period, period_start)
                       DO UPDATE SET amount = u.amount + EXCLUDED.amount
                     ), outbox AS (
                       INSERT INTO outbox_events (id, team_id, mode, type, data, created_at)
                       VALUES (${crypto.randomUUID()}, ${ids.teamId}, 'test', 'spend_request.created', '{}'::jsonb, ${now}),
                              (${crypto.randomUUID()}, ${ids.teamId}, 'test', 'spend_request.approved', '{}'::jsonb, ${now})
                     )
                     SELECT 1`
          yield* sql`INSERT INTO idempotency_responses (team_id, mode, credential_id, method, path, key, fingerprint, status, headers, body, created_at)
                     VALUES (${ids.teamId}, 'test', ${ids.keyId}, 'POST', '/v1/spend-requests', ${id}, ${id}, 201, '{}'::jsonb, ${new Uint8Array(600)}, ${now})
                     ON CONFLICT DO NOTHING RETURNING 1 AS stored`
        })
      )
    })
})

/**
 * CONNECTIONS clients, each sending spend requests one after another for DURATION_SECONDS through `spend` (made once,
 * in the client's scope), agents taken in turn; latency from a request's first statement to its answer.
 */
export const closedLoop = <E>(
  name: string,
  url: string,
  agents: ReadonlyArray<AgentIds>,
  spend: Effect.Effect<(ids: AgentIds) => Effect.Effect<void, E>, never, SqlClient.SqlClient | Scope.Scope>
) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const one = yield* spend
      const latencies: Array<number> = []
      const deadline = Date.now() + DURATION_SECONDS * 1000
      const worker = Effect.whileLoop({
        while: () => Date.now() < deadline,
        body: () =>
          Effect.suspend(() => {
            const started = performance.now()
            return one(agents[nextTurn(agents.length)]!).pipe(
              Effect.tap(() => Effect.sync(() => latencies.push(performance.now() - started)))
            )
          }),
        step: () => undefined
      })
      yield* Effect.all(
        Array.from({ length: CONNECTIONS }, () => worker),
        { concurrency: "unbounded", discard: true }
      )
      const at = quantiles(latencies)
      return {
        name,
        requestsPerSecond: latencies.length / DURATION_SECONDS,
        p50: at(0.5),
        p99: at(0.99),
        failures: 0
      } satisfies Figures
    }).pipe(Effect.provide(clientForUrl(Redacted.make(url), POOL_SIZE)), Effect.scoped)
  )

/** The SQL of one spend request at a time per client, each in its own transaction. */
export const directSql = (name: string, url: string, agents: ReadonlyArray<AgentIds>) =>
  closedLoop(name, url, agents, perRequest)

/**
 * The group-committed spend path of ADR 0007, issued directly over SQL: the physical reference for a batching spend
 * writer. Each client runs its statements before the transaction (rate-limit bucket, credential, idempotency look-up)
 * and queues its spend; one writer takes the spends waiting at that moment (up to BATCH_CAP) and, in one transaction,
 * takes their idempotency locks, locks their accounts in id order and then their credentials' budget totals, decides
 * them one after another on that locked snapshot, writes all of them in one statement and all answers in another, and
 * commits once.
 */

import { Array as Arr, Deferred, Effect, Queue } from "effect"
import { SqlClient } from "effect/sql"
import { type AgentIds, beforeTransaction, closedLoop } from "./directSql.ts"

const BATCH_CAP = 64
const AMOUNT = 1

interface Waiting {
  readonly ids: AgentIds
  readonly key: string
  readonly done: Deferred.Deferred<void, unknown>
}

/** Distinct values of `values`, sorted: the order every lock of a batch is taken in. */
const sortedDistinct = (values: ReadonlyArray<string>) => Array.from(new Set(values)).sort()

const writeBatch = (sql: SqlClient.SqlClient, batch: Arr.NonEmptyReadonlyArray<Waiting>) =>
  sql.withTransaction(
    Effect.gen(function* () {
      const now = new Date().toISOString()
      yield* sql`SELECT pg_try_advisory_xact_lock(hashtextextended(k, 0))
                 FROM jsonb_array_elements_text(${JSON.stringify(sortedDistinct(batch.map((w) => w.key)))}::jsonb) k`
      const accountIds = sortedDistinct(batch.flatMap((w) => [w.ids.accountId, w.ids.settlementId]))
      const locked = yield* sql<{ readonly id: string; readonly postedSum: string; readonly pendingOut: string }>`
        SELECT id, posted_sum, pending_out FROM ledger_accounts
        WHERE id IN (SELECT jsonb_array_elements_text(${JSON.stringify(accountIds)}::jsonb)::uuid)
        ORDER BY id FOR UPDATE`
      const keyIds = JSON.stringify(sortedDistinct(batch.map((w) => w.ids.keyId)))
      yield* sql`
        INSERT INTO spend_usage AS u (spending_key_id, category, period, period_start, amount)
        SELECT k::uuid, '', p.period, date_trunc(p.period, ${now}::timestamptz), 0
        FROM jsonb_array_elements_text(${keyIds}::jsonb) k, (VALUES ('day'), ('month')) AS p(period)
        ORDER BY 1, 3
        ON CONFLICT (spending_key_id, category, period, period_start) DO UPDATE SET amount = u.amount`

      const available = new Map(locked.map((a) => [a.id, Number(a.postedSum) - Number(a.pendingOut)]))
      const transactions: Array<Record<string, unknown>> = []
      const entries: Array<Record<string, unknown>> = []
      const requests: Array<Record<string, unknown>> = []
      const events: Array<Record<string, unknown>> = []
      const moved = new Map<string, number>()
      const usage = new Map<string, number>()
      const move = (totals: Map<string, number>, id: string, amount: number) =>
        totals.set(id, (totals.get(id) ?? 0) + amount)
      for (const { ids, key } of batch) {
        const approved = (available.get(ids.accountId) ?? 0) >= AMOUNT
        const txId = approved ? crypto.randomUUID() : null
        if (txId !== null) {
          move(available, ids.accountId, -AMOUNT)
          move(moved, ids.accountId, -AMOUNT)
          move(moved, ids.settlementId, AMOUNT)
          move(usage, ids.keyId, AMOUNT)
          const entry = { transaction_id: txId, team_id: ids.teamId, mode: "test", currency: "USD", pending: false }
          transactions.push({
            id: txId,
            team_id: ids.teamId,
            mode: "test",
            kind: "posted",
            code: "spend_request",
            reference: key,
            created_at: now
          })
          entries.push(
            { ...entry, account_id: ids.accountId, amount: -AMOUNT },
            { ...entry, account_id: ids.settlementId, amount: AMOUNT }
          )
        }
        const outcome = approved ? "approved" : "denied"
        requests.push({
          id: key,
          team_id: ids.teamId,
          mode: "test",
          status: outcome,
          amount: AMOUNT,
          currency: "USD",
          merchant: '{"name":"m"}',
          purpose: "p",
          account_id: ids.accountId,
          spending_key_id: ids.keyId,
          metadata: "{}",
          decision: JSON.stringify({
            outcome,
            reasons: approved ? [] : [{ code: "insufficient_funds", message: "available balance is below the amount" }]
          }),
          ledger_transaction_id: txId,
          created_at: now,
          updated_at: now
        })
        for (const type of ["spend_request.created", `spend_request.${outcome}`]) {
          events.push({ id: crypto.randomUUID(), team_id: ids.teamId, mode: "test", type, data: "{}", created_at: now })
        }
      }
      const sums = (totals: Map<string, number>) =>
        JSON.stringify(Array.from(totals, ([id, amount]) => ({ id, amount })))
      /** A CTE inserting `rows` into `table`; none when there are no rows (every request of the batch denied). */
      const insert = (name: string, table: string, rows: Array<Record<string, unknown>>) =>
        Arr.isArrayNonEmpty(rows) ? [sql`${sql(name)} AS (INSERT INTO ${sql(table)} ${sql.insert(rows)})`] : []
      yield* sql`WITH ${sql.csv([
        ...insert("ledger_tx", "ledger_transactions", transactions),
        ...insert("ledger_inserted", "ledger_entries", entries),
        sql`ledger_moved AS (
              UPDATE ledger_accounts l SET posted_sum = l.posted_sum + s.amount
              FROM jsonb_to_recordset(${sums(moved)}::jsonb) AS s(id uuid, amount bigint) WHERE l.id = s.id)`,
        sql`spend_usage_moved AS (
              UPDATE spend_usage u SET amount = u.amount + s.amount
              FROM jsonb_to_recordset(${sums(usage)}::jsonb) AS s(id uuid, amount bigint)
              WHERE u.spending_key_id = s.id AND u.category = '' AND u.period IN ('day', 'month')
                AND u.period_start = date_trunc(u.period, ${now}::timestamptz))`,
        ...insert("spend_request", "spend_requests", requests),
        ...insert("outbox", "outbox_events", events)
      ])} SELECT 1`
      yield* sql`INSERT INTO idempotency_responses ${sql.insert(
        Arr.map(batch, ({ ids, key }) => ({
          team_id: ids.teamId,
          mode: "test",
          credential_id: ids.keyId,
          method: "POST",
          path: "/v1/spend-requests",
          key,
          fingerprint: key,
          status: 201,
          headers: "{}",
          body: new Uint8Array(600),
          created_at: now
        }))
      )} ON CONFLICT DO NOTHING`
    })
  )

/** One writer fiber in the client's scope; a spend request queues its spend and waits for the batch's commit. */
const batched = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const queue = yield* Queue.unbounded<Waiting>()
  yield* Effect.forkScoped(
    Effect.forever(
      Effect.gen(function* () {
        const batch = yield* Queue.takeBetween(queue, 1, BATCH_CAP)
        if (!Arr.isArrayNonEmpty(batch)) return
        const exit = yield* Effect.exit(writeBatch(sql, batch))
        for (const waiting of batch) yield* Deferred.done(waiting.done, exit)
      })
    )
  )
  return (ids: AgentIds) =>
    Effect.gen(function* () {
      const key = crypto.randomUUID()
      yield* beforeTransaction(sql, ids, key)
      const done = yield* Deferred.make<void, unknown>()
      yield* Queue.offer(queue, { ids, key, done })
      yield* Deferred.await(done)
    })
})

/** The group-committed SQL of spend requests, at the same concurrency as `directSql`. */
export const batchedSql = (name: string, url: string, agents: ReadonlyArray<AgentIds>) =>
  closedLoop(name, url, agents, batched)

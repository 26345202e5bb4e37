import {
  type AccountId,
  type Approval,
  type LedgerTransactionId,
  type Merchant,
  type SpendDecision,
  type SpendRequest,
  type SpendRequestId,
  SpendRequestsRepo,
  type TeamId
} from "@svc/domain"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { int, iso, orUnavailable } from "./Sql.ts"

interface Row {
  readonly id: string
  readonly teamId: string
  readonly mode: SpendRequest["mode"]
  readonly status: SpendRequest["status"]
  readonly amount: string | number
  readonly currency: string
  readonly merchant: Merchant
  readonly purpose: string
  readonly accountId: string
  readonly spendingKeyId: string
  readonly metadata: Record<string, string>
  readonly decision: SpendDecision
  readonly approval: Approval | null
  readonly ledgerTransactionId: string | null
  readonly holdTransactionId: string | null
  readonly createdAt: Date
  readonly updatedAt: Date
}

const COLUMNS =
  "id, team_id, mode, status, amount, currency, merchant, purpose, account_id, spending_key_id, metadata, decision, approval, " +
  "ledger_transaction_id, hold_transaction_id, created_at, updated_at"

const toSpendRequest = (row: Row): SpendRequest => ({
  id: row.id as SpendRequestId,
  teamId: row.teamId as TeamId,
  mode: row.mode,
  status: row.status,
  amount: int(row.amount),
  currency: row.currency,
  merchant: row.merchant,
  purpose: row.purpose,
  accountId: row.accountId as AccountId,
  spendingKeyId: row.spendingKeyId,
  metadata: row.metadata,
  decision: row.decision,
  approval: row.approval,
  ledgerTransactionId: row.ledgerTransactionId as LedgerTransactionId | null,
  holdTransactionId: row.holdTransactionId as LedgerTransactionId | null,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt)
})

/** SpendRequestsRepo on Postgres; a trigger refuses any update of a request whose status is final. */
export const SpendRequestsRepoPg = Layer.effect(
  SpendRequestsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(COLUMNS)
    const one = (rows: ReadonlyArray<Row>) => Option.map(Option.fromNullishOr(rows[0]), toSpendRequest)
    return SpendRequestsRepo.of({
      insert: (sr) =>
        sql`INSERT INTO spend_requests (id, team_id, mode, status, amount, currency, merchant, purpose, account_id, spending_key_id,
              metadata, decision, approval_id, approval, approval_expires_at, ledger_transaction_id, hold_transaction_id, created_at, updated_at)
            VALUES (${sr.id}, ${sr.teamId}, ${sr.mode}, ${sr.status}, ${sr.amount}, ${sr.currency}, ${JSON.stringify(sr.merchant)}::jsonb,
              ${sr.purpose}, ${sr.accountId}, ${sr.spendingKeyId}, ${JSON.stringify(sr.metadata)}::jsonb, ${JSON.stringify(sr.decision)}::jsonb,
              ${sr.approval?.id ?? null}, ${sr.approval === null ? null : JSON.stringify(sr.approval)}::jsonb, ${sr.approval?.expiresAt ?? null},
              ${sr.ledgerTransactionId}, ${sr.holdTransactionId}, ${sr.createdAt}, ${sr.updatedAt})`.pipe(
          Effect.asVoid,
          orUnavailable("spendRequests.insert")
        ),
      find: (teamId, id) =>
        sql<Row>`SELECT ${columns} FROM spend_requests WHERE id = ${id} AND team_id = ${teamId}`.pipe(
          Effect.map(one),
          orUnavailable("spendRequests.find")
        ),
      findByApprovalId: (teamId, approvalId) =>
        sql<Row>`SELECT ${columns} FROM spend_requests WHERE approval_id = ${approvalId} AND team_id = ${teamId}`.pipe(
          Effect.map(one),
          orUnavailable("spendRequests.findByApprovalId")
        ),
      list: (teamId, query, page) =>
        sql<Row>`SELECT ${columns} FROM spend_requests WHERE ${sql.and([
          sql`team_id = ${teamId}`,
          ...(query.mode === undefined ? [] : [sql`mode = ${query.mode}`]),
          ...(query.status === undefined ? [] : [sql`status = ${query.status}`]),
          ...(query.approvalStatus === undefined ? [] : [sql`approval->>'status' = ${query.approvalStatus}`]),
          ...(query.withApproval === true ? [sql`approval_id IS NOT NULL`] : []),
          ...Option.match(page.after, {
            onNone: () => [],
            onSome: (p) => [sql`(created_at, id) < (${p.createdAt}::timestamptz, ${p.id}::uuid)`]
          })
        ])} ORDER BY created_at DESC, id DESC LIMIT ${page.limit + 1}`.pipe(
          Effect.map((rows) => rows.map(toSpendRequest)),
          orUnavailable("spendRequests.list")
        ),
      usage: (keyId, windows) =>
        sql<{ period: "day" | "month"; amount: string }>`
          SELECT period, amount::text AS amount FROM spend_usage
          WHERE spending_key_id = ${keyId}
            AND ((period = 'day' AND period_start = ${windows.day}) OR (period = 'month' AND period_start = ${windows.month}))`.pipe(
          Effect.map(
            (rows) =>
              [
                int(rows.find((r) => r.period === "day")?.amount ?? 0),
                int(rows.find((r) => r.period === "month")?.amount ?? 0)
              ] as const
          ),
          orUnavailable("spendRequests.usage")
        ),
      addUsage: (keyId, windows, delta) =>
        (delta >= 0
          ? sql`INSERT INTO spend_usage (spending_key_id, period, period_start, amount)
                VALUES (${keyId}, 'day', ${windows.day}, ${delta}), (${keyId}, 'month', ${windows.month}, ${delta})
                ON CONFLICT (spending_key_id, period, period_start) DO UPDATE SET amount = spend_usage.amount + EXCLUDED.amount`
          : sql`UPDATE spend_usage SET amount = amount + ${delta}
                WHERE spending_key_id = ${keyId}
                  AND ((period = 'day' AND period_start = ${windows.day}) OR (period = 'month' AND period_start = ${windows.month}))`
        ).pipe(Effect.asVoid, orUnavailable("spendRequests.addUsage")),
      transition: (teamId, id, t) =>
        sql<Row>`UPDATE spend_requests
                 SET status = ${t.status}, approval = ${JSON.stringify(t.approval)}::jsonb,
                     ledger_transaction_id = ${t.ledgerTransactionId}, updated_at = ${t.updatedAt}
                 WHERE id = ${id} AND team_id = ${teamId} AND status = 'pending_approval'
                 RETURNING ${columns}`.pipe(Effect.map(one), orUnavailable("spendRequests.transition")),
      dueForExpiry: (now, limit) =>
        sql<Row>`SELECT ${columns} FROM spend_requests
                 WHERE status = 'pending_approval' AND approval_expires_at <= ${now}
                 ORDER BY approval_expires_at LIMIT ${limit}`.pipe(
          Effect.map((rows) => rows.map(toSpendRequest)),
          orUnavailable("spendRequests.dueForExpiry")
        )
    })
  })
)

import {
  type AccountId,
  type ApprovalId,
  type ApprovalStatus,
  type LedgerTransactionId,
  type Merchant,
  type SpendDecision,
  type SpendPolicy,
  type SpendRequest,
  type SpendRequestId,
  SpendRequestsRepo,
  type TeamId,
  type UsageWindows
} from "@svc/domain"
import { Array as Arr, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { type AccountRow, countersOf, postingCtes, toAccount } from "../ledger/index.ts"
import { outboxRows } from "../platform/index.ts"
import { int, iso, orUnavailable } from "../shared/index.ts"

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
  readonly approvalId: string | null
  readonly approvalStatus: ApprovalStatus | null
  readonly approvalExpiresAt: Date | null
  readonly approvalDecidedAt: Date | null
  readonly approvalDecidedBy: string | null
  readonly approvalNote: string | null
  readonly ledgerTransactionId: string | null
  readonly holdTransactionId: string | null
  readonly createdAt: Date
  readonly updatedAt: Date
}

const COLUMNS =
  "r.id, r.team_id, r.mode, r.status, r.amount, r.currency, r.merchant, r.purpose, r.account_id, r.spending_key_id, " +
  "r.metadata, r.decision, r.ledger_transaction_id, r.hold_transaction_id, r.created_at, r.updated_at, " +
  "a.id AS approval_id, a.status AS approval_status, a.expires_at AS approval_expires_at, " +
  "a.decided_at AS approval_decided_at, a.decided_by AS approval_decided_by, a.note AS approval_note"

/**
 * A row of `lock_spend_decision` (migrations 0008, 0011): the locked spend or settlement account, each with the team policy
 * and the budget totals.
 */
interface DecisionRow extends AccountRow {
  readonly teamPolicy: SpendPolicy | null
  readonly spentToday: string | number
  readonly spentThisMonth: string | number
}

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
  approval:
    row.approvalId === null
      ? null
      : {
          id: row.approvalId as ApprovalId,
          status: row.approvalStatus!,
          expiresAt: iso(row.approvalExpiresAt!),
          decidedAt: row.approvalDecidedAt === null ? null : iso(row.approvalDecidedAt),
          decidedBy: row.approvalDecidedBy,
          note: row.approvalNote
        },
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
    /** Requests (as `r`) with their approvals (as `a`). */
    const withApprovals = sql.unsafe("spend_requests r LEFT JOIN approvals a ON a.id = r.approval_id")
    /** Adds `delta` to a credential's totals in both windows; the rows stay locked until the transaction ends. */
    const usageUpsert = (keyId: string, windows: UsageWindows, delta: number) => sql`
      INSERT INTO spend_usage AS u (spending_key_id, period, period_start, amount)
      VALUES (${keyId}, 'day', ${windows.day}, ${delta}), (${keyId}, 'month', ${windows.month}, ${delta})
      ON CONFLICT (spending_key_id, period, period_start) DO UPDATE SET amount = u.amount + EXCLUDED.amount`
    const one = (rows: ReadonlyArray<Row>) => Option.map(Option.fromNullishOr(rows[0]), toSpendRequest)
    return SpendRequestsRepo.of({
      lockForDecision: ({ teamId, mode, accountId, spendingKeyId, windows }) =>
        sql<DecisionRow>`
          SELECT * FROM lock_spend_decision(${teamId}, ${mode}, ${accountId}::uuid, ${spendingKeyId}, ${windows.day}, ${windows.month})`.pipe(
          Effect.map((rows) => {
            const locked = (kind: "spend" | "settlement") =>
              Option.map(Option.fromNullishOr(rows.find((a) => a.kind === kind)), (row) => ({
                account: toAccount(row),
                counters: countersOf(row)
              }))
            return {
              spendAccount: locked("spend"),
              settlementAccount: locked("settlement"),
              teamPolicy: rows[0]?.teamPolicy ?? {},
              spentToday: int(rows[0]?.spentToday ?? 0),
              spentThisMonth: int(rows[0]?.spentThisMonth ?? 0)
            }
          }),
          orUnavailable("spendRequests.lockForDecision")
        ),
      insertDecided: ({ request: sr, ledgerTransaction, usage, events }) =>
        Effect.suspend(() => {
          const outbox = outboxRows(events)
          const writes = [
            ...(ledgerTransaction === null ? [] : [postingCtes(sql, ledgerTransaction)]),
            sql`spend_request AS (
              INSERT INTO spend_requests (id, team_id, mode, status, amount, currency, merchant, purpose, account_id, spending_key_id,
                metadata, decision, approval_id, ledger_transaction_id, hold_transaction_id, created_at, updated_at)
              VALUES (${sr.id}, ${sr.teamId}, ${sr.mode}, ${sr.status}, ${sr.amount}, ${sr.currency}, ${JSON.stringify(sr.merchant)}::jsonb,
                ${sr.purpose}, ${sr.accountId}, ${sr.spendingKeyId}, ${JSON.stringify(sr.metadata)}::jsonb, ${JSON.stringify(sr.decision)}::jsonb,
                ${sr.approval?.id ?? null},
                ${sr.ledgerTransactionId}, ${sr.holdTransactionId}, ${sr.createdAt}, ${sr.updatedAt})
            )`,
            ...(usage.amount === 0
              ? []
              : [sql`spend_usage_moved AS (${usageUpsert(sr.spendingKeyId, usage.windows, usage.amount)})`]),
            ...(Arr.isArrayNonEmpty(outbox) ? [sql`outbox AS (INSERT INTO outbox_events ${sql.insert(outbox)})`] : [])
          ]
          return sql`WITH ${sql.csv(writes)} SELECT 1`
        }).pipe(Effect.asVoid, orUnavailable("spendRequests.insertDecided")),
      find: (teamId, id) =>
        sql<Row>`SELECT ${columns} FROM ${withApprovals} WHERE r.id = ${id} AND r.team_id = ${teamId}`.pipe(
          Effect.map(one),
          orUnavailable("spendRequests.find")
        ),
      list: (teamId, query, page) =>
        sql<Row>`SELECT ${columns} FROM ${withApprovals} WHERE ${sql.and([
          sql`r.team_id = ${teamId}`,
          ...(query.mode === undefined ? [] : [sql`r.mode = ${query.mode}`]),
          ...(query.status === undefined ? [] : [sql`r.status = ${query.status}`]),
          ...(query.approvalStatus === undefined ? [] : [sql`a.status = ${query.approvalStatus}`]),
          ...(query.withApproval === true ? [sql`r.approval_id IS NOT NULL`] : []),
          ...Option.match(page.after, {
            onNone: () => [],
            onSome: (p) => [sql`(r.created_at, r.id) < (${p.createdAt}::timestamptz, ${p.id}::uuid)`]
          })
        ])} ORDER BY r.created_at DESC, r.id DESC LIMIT ${page.limit + 1}`.pipe(
          Effect.map((rows) => rows.map(toSpendRequest)),
          orUnavailable("spendRequests.list")
        ),
      releaseUsage: (keyId, windows, amount) =>
        sql`UPDATE spend_usage SET amount = amount - ${amount}
            WHERE spending_key_id = ${keyId}
              AND ((period = 'day' AND period_start = ${windows.day}) OR (period = 'month' AND period_start = ${windows.month}))`.pipe(
          Effect.asVoid,
          orUnavailable("spendRequests.releaseUsage")
        ),
      transition: (teamId, id, t) =>
        sql<Row>`WITH r AS (
                   UPDATE spend_requests
                   SET status = ${t.status}, ledger_transaction_id = ${t.ledgerTransactionId}, updated_at = ${t.updatedAt}
                   WHERE id = ${id} AND team_id = ${teamId} AND status = 'pending_approval'
                   RETURNING *
                 )
                 SELECT ${columns} FROM r LEFT JOIN approvals a ON a.id = r.approval_id`.pipe(
          Effect.map(one),
          orUnavailable("spendRequests.transition")
        ),
      dueForExpiry: (now, limit) =>
        sql<Row>`SELECT ${columns} FROM spend_requests r JOIN approvals a ON a.id = r.approval_id
                 WHERE a.status = 'pending' AND a.expires_at <= ${now} AND r.status = 'pending_approval'
                 ORDER BY a.expires_at, r.id LIMIT ${limit}`.pipe(
          Effect.map((rows) => rows.map(toSpendRequest)),
          orUnavailable("spendRequests.dueForExpiry")
        )
    })
  })
)

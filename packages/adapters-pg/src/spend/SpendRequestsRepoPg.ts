import { ApprovalView, SpendPolicy, SpendRequest, SpendRequestsRepo, type UsageWindows } from "@svc/domain"
import { Array as Arr, Effect, flow, Layer, Option, Schema, Struct } from "effect"
import { SqlClient } from "effect/sql"
import { AccountRow, lockedAccount, postingCtes } from "../ledger/index.ts"
import { outboxRows } from "../platform/index.ts"
import { decodeFirst, decodeRows, orUnavailable, SafeIntegerColumn } from "../shared/index.ts"

const Row = Schema.Struct({
  ...Struct.omit(SpendRequest.fields, ["approval"]),
  amount: SafeIntegerColumn,
  metadata: Schema.fromJsonString(SpendRequest.fields.metadata),
  approvalId: Schema.NullOr(ApprovalView.fields.id),
  approvalStatus: Schema.NullOr(ApprovalView.fields.status),
  approvalExpiresAt: Schema.NullOr(ApprovalView.fields.expiresAt),
  approvalDecidedAt: ApprovalView.fields.decidedAt,
  approvalDecidedBy: ApprovalView.fields.decidedBy,
  approvalNote: ApprovalView.fields.note
})

const COLUMNS =
  "r.id, r.team_id, r.mode, r.status, r.amount, r.currency, r.merchant, r.purpose, r.account_id, r.spending_key_id, " +
  "r.metadata::text AS metadata, r.decision, r.ledger_transaction_id, r.hold_transaction_id, r.created_at, r.updated_at, " +
  "a.id AS approval_id, a.status AS approval_status, a.expires_at AS approval_expires_at, " +
  "a.decided_at AS approval_decided_at, a.decided_by AS approval_decided_by, a.note AS approval_note"

/**
 * A row of `lock_spend_decision` (migrations 0008, 0011): the locked spend or settlement account, each with the team policy
 * and the budget totals.
 */
const DecisionRow = Schema.Struct({
  ...AccountRow.fields,
  teamPolicy: Schema.NullOr(SpendPolicy),
  spentToday: SafeIntegerColumn,
  spentThisMonth: SafeIntegerColumn
})

const toSpendRequest = ({
  approvalId,
  approvalStatus,
  approvalExpiresAt,
  approvalDecidedAt,
  approvalDecidedBy,
  approvalNote,
  ...request
}: typeof Row.Type): SpendRequest => ({
  ...request,
  approval:
    approvalId === null || approvalStatus === null || approvalExpiresAt === null
      ? null
      : {
          id: approvalId,
          status: approvalStatus,
          expiresAt: approvalExpiresAt,
          decidedAt: approvalDecidedAt,
          decidedBy: approvalDecidedBy,
          note: approvalNote
        }
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
    const one = (operation: string) => flow(decodeFirst(Row, operation), Effect.map(Option.map(toSpendRequest)))
    const all = (operation: string) => flow(decodeRows(Row, operation), Effect.map(Arr.map(toSpendRequest)))
    return SpendRequestsRepo.of({
      lockForDecision: ({ teamId, mode, accountId, spendingKeyId, windows }) =>
        sql`
          SELECT * FROM lock_spend_decision(${teamId}, ${mode}, ${accountId}::uuid, ${spendingKeyId}, ${windows.day}, ${windows.month})`.pipe(
          orUnavailable("spendRequests.lockForDecision"),
          Effect.flatMap(decodeRows(DecisionRow, "spendRequests.lockForDecision")),
          Effect.map((rows) => {
            const locked = (kind: "spend" | "settlement") =>
              Option.map(Option.fromNullishOr(rows.find((a) => a.kind === kind)), lockedAccount)
            return {
              spendAccount: locked("spend"),
              settlementAccount: locked("settlement"),
              teamPolicy: rows[0]?.teamPolicy ?? {},
              spentToday: rows[0]?.spentToday ?? 0,
              spentThisMonth: rows[0]?.spentThisMonth ?? 0
            }
          })
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
        sql`SELECT ${columns} FROM ${withApprovals} WHERE r.id = ${id} AND r.team_id = ${teamId}`.pipe(
          orUnavailable("spendRequests.find"),
          Effect.flatMap(one("spendRequests.find"))
        ),
      list: (teamId, query, page) =>
        sql`SELECT ${columns} FROM ${withApprovals} WHERE ${sql.and([
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
          orUnavailable("spendRequests.list"),
          Effect.flatMap(all("spendRequests.list"))
        ),
      releaseUsage: (keyId, windows, amount) =>
        sql`UPDATE spend_usage SET amount = amount - ${amount}
            WHERE spending_key_id = ${keyId}
              AND ((period = 'day' AND period_start = ${windows.day}) OR (period = 'month' AND period_start = ${windows.month}))`.pipe(
          Effect.asVoid,
          orUnavailable("spendRequests.releaseUsage")
        ),
      transition: (teamId, id, t) =>
        sql`WITH r AS (
                   UPDATE spend_requests
                   SET status = ${t.status}, ledger_transaction_id = ${t.ledgerTransactionId}, updated_at = ${t.updatedAt}
                   WHERE id = ${id} AND team_id = ${teamId} AND status = 'pending_approval'
                   RETURNING *
                 )
                 SELECT ${columns} FROM r LEFT JOIN approvals a ON a.id = r.approval_id`.pipe(
          orUnavailable("spendRequests.transition"),
          Effect.flatMap(one("spendRequests.transition"))
        ),
      dueForExpiry: (now, limit) =>
        sql`SELECT ${columns} FROM spend_requests r JOIN approvals a ON a.id = r.approval_id
                 WHERE a.status = 'pending' AND a.expires_at <= ${now} AND r.status = 'pending_approval'
                 ORDER BY a.expires_at, r.id LIMIT ${limit}`.pipe(
          orUnavailable("spendRequests.dueForExpiry"),
          Effect.flatMap(all("spendRequests.dueForExpiry"))
        )
    })
  })
)

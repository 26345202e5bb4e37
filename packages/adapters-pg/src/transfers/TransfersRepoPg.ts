import { Transfer, TransfersRepo } from "@svc/domain"
import { Array as Arr, Effect, flow, Layer, Option, Schema, Struct } from "effect"
import { SqlClient } from "effect/sql"
import { JOINED_APPROVAL_COLUMNS, JoinedApprovalFields, withJoinedApproval } from "../approvals/index.ts"
import { decodeFirst, decodeRows, orUnavailable, SafeIntegerColumn } from "../shared/index.ts"

const Row = Schema.Struct({
  ...Struct.omit(Transfer.fields, ["approval"]),
  amount: SafeIntegerColumn,
  ...JoinedApprovalFields
})

const COLUMNS =
  "t.id, t.mode, t.status, t.amount, t.currency, t.memo, t.sender_team_id, t.sender_address, t.sender_account_id, " +
  "t.spending_key_id, t.recipient_team_id, t.recipient_address, t.payment_code, t.decision, t.hold_transaction_id, " +
  `t.expires_at, t.created_at, t.updated_at, ${JOINED_APPROVAL_COLUMNS}`

const toTransfer = (row: typeof Row.Type): Transfer => withJoinedApproval(row)

/** TransfersRepo on Postgres; a trigger refuses any update of a transfer whose status is final. */
export const TransfersRepoPg = Layer.effect(
  TransfersRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(COLUMNS)
    const withApprovals = sql.unsafe("transfers t LEFT JOIN approvals a ON a.id = t.approval_id")
    const one = (operation: string) => flow(decodeFirst(Row, operation), Effect.map(Option.map(toTransfer)))
    const all = (operation: string) => flow(decodeRows(Row, operation), Effect.map(Arr.map(toTransfer)))
    return TransfersRepo.of({
      insert: (t) =>
        sql`INSERT INTO transfers ${sql.insert({
          id: t.id,
          mode: t.mode,
          status: t.status,
          amount: t.amount,
          currency: t.currency,
          memo: t.memo,
          sender_team_id: t.senderTeamId,
          sender_address: t.senderAddress,
          sender_account_id: t.senderAccountId,
          spending_key_id: t.spendingKeyId,
          recipient_team_id: t.recipientTeamId,
          recipient_address: t.recipientAddress,
          payment_code: t.paymentCode,
          decision: JSON.stringify(t.decision),
          approval_id: t.approval?.id ?? null,
          hold_transaction_id: t.holdTransactionId,
          expires_at: t.expiresAt,
          created_at: t.createdAt,
          updated_at: t.updatedAt
        })}`.pipe(Effect.asVoid, orUnavailable("transfers.insert")),
      find: (id) =>
        sql`SELECT ${columns} FROM ${withApprovals} WHERE t.id = ${id}`.pipe(
          orUnavailable("transfers.find"),
          Effect.flatMap(one("transfers.find"))
        ),
      list: (teamId, query, page) =>
        sql`SELECT ${columns} FROM ${withApprovals} WHERE ${sql.and([
          query.direction === "outgoing"
            ? sql`t.sender_team_id = ${teamId}`
            : query.direction === "incoming"
              ? sql`t.recipient_team_id = ${teamId}`
              : sql`(t.sender_team_id = ${teamId} OR t.recipient_team_id = ${teamId})`,
          ...(query.mode === undefined ? [] : [sql`t.mode = ${query.mode}`]),
          ...(query.status === undefined ? [] : [sql`t.status = ${query.status}`]),
          ...(query.spendingKeyId === undefined ? [] : [sql`t.spending_key_id = ${query.spendingKeyId}`]),
          ...(query.createdFrom === undefined ? [] : [sql`t.created_at >= ${query.createdFrom}::timestamptz`]),
          ...(query.createdBefore === undefined ? [] : [sql`t.created_at < ${query.createdBefore}::timestamptz`]),
          ...(query.approvalStatus === undefined ? [] : [sql`a.status = ${query.approvalStatus}`]),
          ...(query.withApproval === true ? [sql`t.approval_id IS NOT NULL`] : []),
          ...Option.match(page.after, {
            onNone: () => [],
            onSome: (p) => [sql`(t.created_at, t.id) < (${p.createdAt}::timestamptz, ${p.id}::uuid)`]
          })
        ])} ORDER BY t.created_at DESC, t.id DESC LIMIT ${page.limit + 1}`.pipe(
          orUnavailable("transfers.list"),
          Effect.flatMap(all("transfers.list"))
        ),
      transition: (id, from, t) =>
        sql`WITH t AS (
              UPDATE transfers SET status = ${t.status}, expires_at = ${t.expiresAt}, updated_at = ${t.updatedAt}
              WHERE id = ${id} AND status IN ${sql.in(from)}
              RETURNING *
            )
            SELECT ${columns} FROM t LEFT JOIN approvals a ON a.id = t.approval_id`.pipe(
          orUnavailable("transfers.transition"),
          Effect.flatMap(one("transfers.transition"))
        ),
      dueForExpiry: (now, limit) =>
        sql`SELECT ${columns} FROM ${withApprovals}
            WHERE (t.status = 'pending_acceptance' AND t.expires_at <= ${now})
               OR (t.status = 'pending_approval' AND a.status = 'pending' AND a.expires_at <= ${now})
            ORDER BY COALESCE(t.expires_at, a.expires_at), t.id LIMIT ${limit}`.pipe(
          orUnavailable("transfers.dueForExpiry"),
          Effect.flatMap(all("transfers.dueForExpiry"))
        )
    })
  })
)

import { CryptoPayout, CryptoPayoutsRepo } from "@svc/domain"
import { Array as Arr, Effect, flow, Layer, Option, Schema, Struct } from "effect"
import { SqlClient } from "effect/sql"
import { JOINED_APPROVAL_COLUMNS, JoinedApprovalFields, withJoinedApproval } from "../approvals/index.ts"
import { decodeFirst, decodeRows, orUnavailable, SafeIntegerColumn } from "../shared/index.ts"

const Row = Schema.Struct({
  ...Struct.omit(CryptoPayout.fields, ["approval"]),
  amount: SafeIntegerColumn,
  serviceFee: SafeIntegerColumn,
  networkFee: SafeIntegerColumn,
  amountDelivered: SafeIntegerColumn,
  ...JoinedApprovalFields
})

const SubmittedRow = Schema.Struct({ ...Row.fields, txHash: Schema.String, payload: Schema.String })

const COLUMNS =
  "p.id, p.team_id, p.mode, p.status, p.quote_id, p.destination_id, p.network, p.asset, p.address, p.amount, " +
  "p.currency, p.service_fee, p.network_fee, p.amount_delivered, p.token_amount, p.decimals, p.account_id, " +
  "p.spending_key_id, p.decision, p.hold_transaction_id, p.tx_hash, p.failure_reason, p.quote_expires_at, " +
  `p.submitted_at, p.completed_at, p.created_at, p.updated_at, ${JOINED_APPROVAL_COLUMNS}`

const toPayout = (row: typeof Row.Type): CryptoPayout => withJoinedApproval(row)

/**
 * CryptoPayoutsRepo on Postgres; a trigger refuses any update of a payout whose status is final and any change of its
 * signed transfer once stored. The payload is read back only by `submitted`.
 */
export const CryptoPayoutsRepoPg = Layer.effect(
  CryptoPayoutsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(COLUMNS)
    const withApprovals = sql.unsafe("crypto_payouts p LEFT JOIN approvals a ON a.id = p.approval_id")
    const one = (operation: string) => flow(decodeFirst(Row, operation), Effect.map(Option.map(toPayout)))
    const all = (operation: string) => flow(decodeRows(Row, operation), Effect.map(Arr.map(toPayout)))
    return CryptoPayoutsRepo.of({
      insert: (p) =>
        sql`INSERT INTO crypto_payouts ${sql.insert({
          id: p.id,
          team_id: p.teamId,
          mode: p.mode,
          status: p.status,
          quote_id: p.quoteId,
          destination_id: p.destinationId,
          network: p.network,
          asset: p.asset,
          address: p.address,
          amount: p.amount,
          currency: p.currency,
          service_fee: p.serviceFee,
          network_fee: p.networkFee,
          amount_delivered: p.amountDelivered,
          token_amount: p.tokenAmount,
          decimals: p.decimals,
          account_id: p.accountId,
          spending_key_id: p.spendingKeyId,
          decision: JSON.stringify(p.decision),
          approval_id: p.approval?.id ?? null,
          hold_transaction_id: p.holdTransactionId,
          tx_hash: p.txHash,
          failure_reason: p.failureReason,
          quote_expires_at: p.quoteExpiresAt,
          submitted_at: p.submittedAt,
          completed_at: p.completedAt,
          created_at: p.createdAt,
          updated_at: p.updatedAt
        })}`.pipe(Effect.asVoid, orUnavailable("cryptoPayouts.insert")),
      find: (id) =>
        sql`SELECT ${columns} FROM ${withApprovals} WHERE p.id = ${id}`.pipe(
          orUnavailable("cryptoPayouts.find"),
          Effect.flatMap(one("cryptoPayouts.find"))
        ),
      lock: (id) =>
        sql`SELECT ${columns} FROM ${withApprovals} WHERE p.id = ${id} FOR UPDATE OF p`.pipe(
          orUnavailable("cryptoPayouts.lock"),
          Effect.flatMap(one("cryptoPayouts.lock"))
        ),
      list: (teamId, query, page) =>
        sql`SELECT ${columns} FROM ${withApprovals} WHERE ${sql.and([
          sql`p.team_id = ${teamId}`,
          ...(query.mode === undefined ? [] : [sql`p.mode = ${query.mode}`]),
          ...(query.status === undefined ? [] : [sql`p.status = ${query.status}`]),
          ...(query.approvalStatus === undefined ? [] : [sql`a.status = ${query.approvalStatus}`]),
          ...(query.withApproval === true ? [sql`p.approval_id IS NOT NULL`] : []),
          ...Option.match(page.after, {
            onNone: () => [],
            onSome: (c) => [sql`(p.created_at, p.id) < (${c.createdAt}::timestamptz, ${c.id}::uuid)`]
          })
        ])} ORDER BY p.created_at DESC, p.id DESC LIMIT ${page.limit + 1}`.pipe(
          orUnavailable("cryptoPayouts.list"),
          Effect.flatMap(all("cryptoPayouts.list"))
        ),
      transition: (id, from, t) =>
        sql`WITH p AS (
              UPDATE crypto_payouts SET status = ${t.status}, updated_at = ${t.updatedAt},
                failure_reason = ${t.failureReason}, completed_at = ${t.completedAt}
              WHERE id = ${id} AND status IN ${sql.in(from)}
              RETURNING *
            )
            SELECT ${columns} FROM p LEFT JOIN approvals a ON a.id = p.approval_id`.pipe(
          orUnavailable("cryptoPayouts.transition"),
          Effect.flatMap(one("cryptoPayouts.transition"))
        ),
      submit: (id, prepared, at) =>
        sql`WITH p AS (
              UPDATE crypto_payouts SET status = 'submitted', tx_hash = ${prepared.txHash},
                payload = ${prepared.payload}, submitted_at = ${at}, updated_at = ${at}
              WHERE id = ${id} AND status = 'pending'
              RETURNING *
            )
            SELECT ${columns} FROM p LEFT JOIN approvals a ON a.id = p.approval_id`.pipe(
          orUnavailable("cryptoPayouts.submit"),
          Effect.flatMap(one("cryptoPayouts.submit"))
        ),
      dueForExpiry: (now, limit) =>
        sql`SELECT ${columns} FROM ${withApprovals}
            WHERE p.status = 'pending_approval'
              AND (p.quote_expires_at <= ${now} OR (a.status = 'pending' AND a.expires_at <= ${now}))
            ORDER BY LEAST(p.quote_expires_at, CASE WHEN a.status = 'pending' THEN a.expires_at END), p.id
            LIMIT ${limit}`.pipe(
          orUnavailable("cryptoPayouts.dueForExpiry"),
          Effect.flatMap(all("cryptoPayouts.dueForExpiry"))
        ),
      queued: (limit) =>
        sql`SELECT ${columns} FROM ${withApprovals} WHERE p.status = 'pending'
            ORDER BY p.created_at, p.id LIMIT ${limit}`.pipe(
          orUnavailable("cryptoPayouts.queued"),
          Effect.flatMap(all("cryptoPayouts.queued"))
        ),
      submitted: (limit) =>
        sql`SELECT ${columns}, p.payload FROM ${withApprovals} WHERE p.status = 'submitted'
            ORDER BY p.submitted_at, p.id LIMIT ${limit}`.pipe(
          orUnavailable("cryptoPayouts.submitted"),
          Effect.flatMap(decodeRows(SubmittedRow, "cryptoPayouts.submitted")),
          Effect.map(
            Arr.map(({ payload, ...row }) => ({
              payout: toPayout(row),
              prepared: { txHash: row.txHash, payload }
            }))
          )
        )
    })
  })
)

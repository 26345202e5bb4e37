import { TransferAuthorization, X402Payment, X402PaymentsRepo } from "@svc/domain"
import { Array as Arr, Effect, flow, Layer, Option, Schema, Struct } from "effect"
import { SqlClient } from "effect/sql"
import { JOINED_APPROVAL_COLUMNS, JoinedApprovalFields, withJoinedApproval } from "../approvals/index.ts"
import { decodeFirst, decodeRows, orUnavailable, SafeIntegerColumn } from "../shared/index.ts"

const Row = Schema.Struct({
  ...Struct.omit(X402Payment.fields, ["approval", "authorization"]),
  amount: SafeIntegerColumn,
  authorizationJson: Schema.NullOr(TransferAuthorization),
  ...JoinedApprovalFields
})

const COLUMNS =
  "p.id, p.team_id, p.mode, p.status, p.x402_version, p.resource_url, p.merchant, p.network, p.chain_id, p.asset, " +
  "p.asset_symbol, p.decimals, p.domain_name, p.domain_version, p.pay_to, p.token_amount, p.amount, p.currency, " +
  "p.usd_rate, p.max_timeout_seconds, p.accepted, p.resource, p.account_id, p.spending_key_id, p.decision, " +
  "p.hold_transaction_id, p.authorization_json, p.signature, p.authorization_expires_at, p.settlement_tx_hash, " +
  `p.signed_at, p.completed_at, p.created_at, p.updated_at, ${JOINED_APPROVAL_COLUMNS}`

const toPayment = ({ authorizationJson, ...row }: typeof Row.Type): X402Payment =>
  withJoinedApproval({ ...row, authorization: authorizationJson })

/**
 * X402PaymentsRepo on Postgres; a trigger refuses any update of a payment whose status is final and any change of its
 * authorization once signed.
 */
export const X402PaymentsRepoPg = Layer.effect(
  X402PaymentsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(COLUMNS)
    const withApprovals = sql.unsafe("x402_payments p LEFT JOIN approvals a ON a.id = p.approval_id")
    const one = (operation: string) => flow(decodeFirst(Row, operation), Effect.map(Option.map(toPayment)))
    const all = (operation: string) => flow(decodeRows(Row, operation), Effect.map(Arr.map(toPayment)))
    const json = (value: unknown) => (value === null ? null : JSON.stringify(value))
    return X402PaymentsRepo.of({
      insert: (p) =>
        sql`INSERT INTO x402_payments ${sql.insert({
          id: p.id,
          team_id: p.teamId,
          mode: p.mode,
          status: p.status,
          x402_version: p.x402Version,
          resource_url: p.resourceUrl,
          merchant: p.merchant,
          network: p.network,
          chain_id: p.chainId,
          asset: p.asset,
          asset_symbol: p.assetSymbol,
          decimals: p.decimals,
          domain_name: p.domainName,
          domain_version: p.domainVersion,
          pay_to: p.payTo,
          token_amount: p.tokenAmount,
          amount: p.amount,
          currency: p.currency,
          usd_rate: p.usdRate,
          max_timeout_seconds: p.maxTimeoutSeconds,
          accepted: JSON.stringify(p.accepted),
          resource: json(p.resource),
          account_id: p.accountId,
          spending_key_id: p.spendingKeyId,
          decision: JSON.stringify(p.decision),
          approval_id: p.approval?.id ?? null,
          hold_transaction_id: p.holdTransactionId,
          authorization_json: json(p.authorization),
          signature: p.signature,
          authorization_expires_at: p.authorizationExpiresAt,
          settlement_tx_hash: p.settlementTxHash,
          signed_at: p.signedAt,
          completed_at: p.completedAt,
          created_at: p.createdAt,
          updated_at: p.updatedAt
        })}`.pipe(Effect.asVoid, orUnavailable("x402Payments.insert")),
      find: (id) =>
        sql`SELECT ${columns} FROM ${withApprovals} WHERE p.id = ${id}`.pipe(
          orUnavailable("x402Payments.find"),
          Effect.flatMap(one("x402Payments.find"))
        ),
      list: (teamId, query, page) =>
        sql`SELECT ${columns} FROM ${withApprovals} WHERE ${sql.and([
          sql`p.team_id = ${teamId}`,
          ...(query.mode === undefined ? [] : [sql`p.mode = ${query.mode}`]),
          ...(query.status === undefined ? [] : [sql`p.status = ${query.status}`]),
          ...(query.approvalStatus === undefined ? [] : [sql`a.status = ${query.approvalStatus}`]),
          ...(query.withApproval === true ? [sql`p.approval_id IS NOT NULL`] : []),
          ...(query.spendingKeyId === undefined ? [] : [sql`p.spending_key_id = ${query.spendingKeyId}`]),
          ...Option.match(page.after, {
            onNone: () => [],
            onSome: (c) => [sql`(p.created_at, p.id) < (${c.createdAt}::timestamptz, ${c.id}::uuid)`]
          })
        ])} ORDER BY p.created_at DESC, p.id DESC LIMIT ${page.limit + 1}`.pipe(
          orUnavailable("x402Payments.list"),
          Effect.flatMap(all("x402Payments.list"))
        ),
      transition: (id, from, t) =>
        sql`WITH p AS (
              UPDATE x402_payments SET status = ${t.status}, updated_at = ${t.updatedAt},
                completed_at = ${t.completedAt},
                settlement_tx_hash = COALESCE(${t.settlementTxHash ?? null}, settlement_tx_hash)
              WHERE id = ${id} AND status IN ${sql.in(from)}
              RETURNING *
            )
            SELECT ${columns} FROM p LEFT JOIN approvals a ON a.id = p.approval_id`.pipe(
          orUnavailable("x402Payments.transition"),
          Effect.flatMap(one("x402Payments.transition"))
        ),
      sign: (id, signed) =>
        sql`WITH p AS (
              UPDATE x402_payments SET authorization_json = ${JSON.stringify(signed.authorization)},
                signature = ${signed.signature}, authorization_expires_at = ${signed.authorizationExpiresAt},
                signed_at = ${signed.signedAt}, updated_at = ${signed.signedAt}
              WHERE id = ${id} AND status = 'signed' AND signature IS NULL
              RETURNING *
            )
            SELECT ${columns} FROM p LEFT JOIN approvals a ON a.id = p.approval_id`.pipe(
          orUnavailable("x402Payments.sign"),
          Effect.flatMap(one("x402Payments.sign"))
        ),
      signed: (limit) =>
        sql`SELECT ${columns} FROM ${withApprovals}
            WHERE p.status = 'signed' AND p.authorization_expires_at IS NOT NULL
            ORDER BY p.authorization_expires_at, p.id LIMIT ${limit}`.pipe(
          orUnavailable("x402Payments.signed"),
          Effect.flatMap(all("x402Payments.signed"))
        ),
      dueForExpiry: (now, limit) =>
        sql`SELECT ${columns} FROM ${withApprovals}
            WHERE p.status = 'pending_approval' AND a.status = 'pending' AND a.expires_at <= ${now}
            ORDER BY a.expires_at, p.id LIMIT ${limit}`.pipe(
          orUnavailable("x402Payments.dueForExpiry"),
          Effect.flatMap(all("x402Payments.dueForExpiry"))
        )
    })
  })
)

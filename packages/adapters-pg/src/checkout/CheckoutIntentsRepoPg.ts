import { CheckoutIntent, CheckoutIntentsRepo } from "@svc/domain"
import { Array as Arr, Effect, flow, Layer, Option, Schema, Struct } from "effect"
import { SqlClient } from "effect/sql"
import { JOINED_APPROVAL_COLUMNS, JoinedApprovalFields, withJoinedApproval } from "../approvals/index.ts"
import { decodeFirst, decodeRows, orUnavailable, SafeIntegerColumn } from "../shared/index.ts"

/** A `checkout_intents` row with its joined approval, as read with COLUMNS. */
export const IntentRow = Schema.Struct({
  ...Struct.omit(CheckoutIntent.fields, ["approval"]),
  amount: SafeIntegerColumn,
  authorizedAmount: SafeIntegerColumn,
  capturedAmount: Schema.NullOr(SafeIntegerColumn),
  ...JoinedApprovalFields
})

const COLUMNS =
  "i.id, i.team_id, i.mode, i.status, i.amount, i.currency, " +
  "jsonb_build_object('name', i.merchant_name, 'url', i.merchant_url, 'mcc', i.merchant_mcc, " +
  "'country', i.merchant_country) AS merchant, i.purpose, i.account_id, i.spending_key_id, i.decision, i.card, " +
  `i.authorized_amount, i.captured_amount, i.expires_at, i.created_at, i.updated_at, ${JOINED_APPROVAL_COLUMNS}`

/** The intent of an `IntentRow`. */
export const toIntent = (row: typeof IntentRow.Type): CheckoutIntent => withJoinedApproval(row)

/** CheckoutIntentsRepo on Postgres; a trigger refuses any update of an intent whose status is final. */
export const CheckoutIntentsRepoPg = Layer.effect(
  CheckoutIntentsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(COLUMNS)
    /** Intents (as `i`) with their approvals (as `a`). */
    const withApprovals = sql.unsafe("checkout_intents i LEFT JOIN approvals a ON a.id = i.approval_id")
    const one = (operation: string) => flow(decodeFirst(IntentRow, operation), Effect.map(Option.map(toIntent)))
    const all = (operation: string) => flow(decodeRows(IntentRow, operation), Effect.map(Arr.map(toIntent)))
    return CheckoutIntentsRepo.of({
      insert: (i) =>
        sql`INSERT INTO checkout_intents ${sql.insert({
          id: i.id,
          team_id: i.teamId,
          mode: i.mode,
          status: i.status,
          amount: i.amount,
          currency: i.currency,
          merchant_name: i.merchant.name,
          merchant_url: i.merchant.url,
          merchant_mcc: i.merchant.mcc,
          merchant_country: i.merchant.country,
          purpose: i.purpose,
          account_id: i.accountId,
          spending_key_id: i.spendingKeyId,
          decision: JSON.stringify(i.decision),
          approval_id: i.approval?.id ?? null,
          card: i.card === null ? null : JSON.stringify(i.card),
          authorized_amount: i.authorizedAmount,
          captured_amount: i.capturedAmount,
          expires_at: i.expiresAt,
          created_at: i.createdAt,
          updated_at: i.updatedAt
        })}`.pipe(Effect.asVoid, orUnavailable("checkoutIntents.insert")),
      find: (id) =>
        sql`SELECT ${columns} FROM ${withApprovals} WHERE i.id = ${id}`.pipe(
          orUnavailable("checkoutIntents.find"),
          Effect.flatMap(one("checkoutIntents.find"))
        ),
      list: (teamId, query, page) =>
        sql`SELECT ${columns} FROM ${withApprovals} WHERE ${sql.and([
          sql`i.team_id = ${teamId}`,
          ...(query.mode === undefined ? [] : [sql`i.mode = ${query.mode}`]),
          ...(query.status === undefined ? [] : [sql`i.status = ${query.status}`]),
          ...(query.spendingKeyId === undefined ? [] : [sql`i.spending_key_id = ${query.spendingKeyId}`]),
          ...(query.createdFrom === undefined ? [] : [sql`i.created_at >= ${query.createdFrom}::timestamptz`]),
          ...(query.createdBefore === undefined ? [] : [sql`i.created_at < ${query.createdBefore}::timestamptz`]),
          ...(query.approvalStatus === undefined ? [] : [sql`a.status = ${query.approvalStatus}`]),
          ...(query.withApproval === true ? [sql`i.approval_id IS NOT NULL`] : []),
          ...Option.match(page.after, {
            onNone: () => [],
            onSome: (p) => [sql`(i.created_at, i.id) < (${p.createdAt}::timestamptz, ${p.id}::uuid)`]
          })
        ])} ORDER BY i.created_at DESC, i.id DESC LIMIT ${page.limit + 1}`.pipe(
          orUnavailable("checkoutIntents.list"),
          Effect.flatMap(all("checkoutIntents.list"))
        ),
      lock: (id) =>
        sql`SELECT ${columns} FROM ${withApprovals} WHERE i.id = ${id} FOR UPDATE OF i`.pipe(
          orUnavailable("checkoutIntents.lock"),
          Effect.flatMap(one("checkoutIntents.lock"))
        ),
      transition: (id, from, t) =>
        sql`WITH i AS (
              UPDATE checkout_intents SET ${sql.csv([
                sql`status = ${t.status}`,
                sql`updated_at = ${t.updatedAt}`,
                ...(t.authorizedAmount === undefined ? [] : [sql`authorized_amount = ${t.authorizedAmount}`]),
                ...(t.capturedAmount === undefined ? [] : [sql`captured_amount = ${t.capturedAmount}`]),
                ...(t.card === undefined ? [] : [sql`card = ${JSON.stringify(t.card)}`])
              ])}
              WHERE id = ${id} AND status IN ${sql.in(from)}
              RETURNING *
            )
            SELECT ${columns} FROM i LEFT JOIN approvals a ON a.id = i.approval_id`.pipe(
          orUnavailable("checkoutIntents.transition"),
          Effect.flatMap(one("checkoutIntents.transition"))
        ),
      dueForExpiry: (now, limit) =>
        sql`SELECT ${columns} FROM ${withApprovals}
            WHERE i.status IN ('approved', 'pending_approval')
              AND (i.status = 'approved' OR a.status = 'pending')
              AND (i.expires_at <= ${now} OR (i.status = 'pending_approval' AND a.expires_at <= ${now}))
            ORDER BY CASE i.status WHEN 'approved' THEN i.expires_at ELSE LEAST(i.expires_at, a.expires_at) END, i.id
            LIMIT ${limit}`.pipe(
          orUnavailable("checkoutIntents.dueForExpiry"),
          Effect.flatMap(all("checkoutIntents.dueForExpiry"))
        )
    })
  })
)

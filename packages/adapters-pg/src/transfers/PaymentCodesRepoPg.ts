import { PaymentCode, PaymentCodesRepo } from "@svc/domain"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, orUnavailable, SafeIntegerColumn } from "../shared/index.ts"

const PaymentCodeRow = Schema.Struct({ ...PaymentCode.fields, amount: Schema.NullOr(SafeIntegerColumn) })

/** PaymentCodesRepo on Postgres: a code is marked used by a conditional update, and a trigger keeps a used code final. */
export const PaymentCodesRepoPg = Layer.effect(
  PaymentCodesRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(
      `c.code, c.team_id, t.name AS team_name, h.handle, c.mode, c.amount, c.currency, c.memo, c.expires_at, c.used_at,
       c.used_by_transfer_id, c.created_at`
    )
    const joined = sql`payment_codes c JOIN receive_handles h ON h.team_id = c.team_id JOIN teams t ON t.id = c.team_id`
    return PaymentCodesRepo.of({
      insert: (c) =>
        sql`INSERT INTO payment_codes ${sql.insert({
          code: c.code,
          team_id: c.teamId,
          mode: c.mode,
          amount: c.amount,
          currency: c.currency,
          memo: c.memo,
          expires_at: c.expiresAt,
          used_at: c.usedAt,
          used_by_transfer_id: c.usedByTransferId,
          created_at: c.createdAt
        })}
            ON CONFLICT (code) DO NOTHING
            RETURNING code`.pipe(
          Effect.map((rows) => rows.length === 1),
          orUnavailable("paymentCodes.insert")
        ),
      find: (code) =>
        sql`SELECT ${columns} FROM ${joined} WHERE c.code = ${code}`.pipe(
          orUnavailable("paymentCodes.find"),
          Effect.flatMap(decodeFirst(PaymentCodeRow, "paymentCodes.find"))
        ),
      findForUse: (code) =>
        sql`SELECT ${columns} FROM ${joined} WHERE c.code = ${code} FOR UPDATE OF c`.pipe(
          orUnavailable("paymentCodes.findForUse"),
          Effect.flatMap(decodeFirst(PaymentCodeRow, "paymentCodes.findForUse"))
        ),
      markUsed: (code, use) =>
        sql`WITH used AS (
              UPDATE payment_codes SET used_at = ${use.usedAt}, used_by_transfer_id = ${use.transferId}
              WHERE code = ${code} AND used_at IS NULL
              RETURNING *
            )
            SELECT ${columns} FROM used c JOIN receive_handles h ON h.team_id = c.team_id JOIN teams t ON t.id = c.team_id`.pipe(
          orUnavailable("paymentCodes.markUsed"),
          Effect.flatMap(decodeFirst(PaymentCodeRow, "paymentCodes.markUsed"))
        )
    })
  })
)

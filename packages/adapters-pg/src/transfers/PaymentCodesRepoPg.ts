import { PaymentCode, PaymentCodesRepo } from "@svc/domain"
import { Effect, Layer, Schema } from "effect"
import { SqlClient, type Statement } from "effect/sql"
import { decodeFirst, orUnavailable, SafeIntegerColumn } from "../shared/index.ts"

const PaymentCodeRow = Schema.Struct({ ...PaymentCode.fields, amount: Schema.NullOr(SafeIntegerColumn) })

/**
 * PaymentCodesRepo on Postgres: a code is held, freed and used by conditional updates, and a trigger keeps a used code
 * final.
 */
export const PaymentCodesRepoPg = Layer.effect(
  PaymentCodesRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(
      `c.code, c.team_id, t.name AS team_name, h.handle, c.mode, c.amount, c.currency, c.memo, c.expires_at, c.used_at,
       c.used_by_transfer_id, c.reserved_by_transfer_id, c.created_at`
    )
    const joined = sql`payment_codes c JOIN receive_handles h ON h.team_id = c.team_id JOIN teams t ON t.id = c.team_id`
    /** The code after `update` (an `UPDATE payment_codes ... RETURNING *`), or none when it changed no row. */
    const updated = (operation: string, update: Statement.Fragment) =>
      sql`WITH c AS (${update})
          SELECT ${columns} FROM c JOIN receive_handles h ON h.team_id = c.team_id JOIN teams t ON t.id = c.team_id`.pipe(
        orUnavailable(operation),
        Effect.flatMap(decodeFirst(PaymentCodeRow, operation))
      )
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
          reserved_by_transfer_id: c.reservedByTransferId,
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
        // Not FOR UPDATE: a transfer made with the code holds a KEY SHARE lock on it from its insert, which FOR UPDATE
        // would wait for, so two creations would each wait for the other.
        sql`SELECT ${columns} FROM ${joined} WHERE c.code = ${code} FOR NO KEY UPDATE OF c`.pipe(
          orUnavailable("paymentCodes.findForUse"),
          Effect.flatMap(decodeFirst(PaymentCodeRow, "paymentCodes.findForUse"))
        ),
      reserve: (code, transferId) =>
        updated(
          "paymentCodes.reserve",
          sql`UPDATE payment_codes SET reserved_by_transfer_id = ${transferId}
              WHERE code = ${code} AND used_at IS NULL AND reserved_by_transfer_id IS NULL
              RETURNING *`
        ),
      release: (code, transferId) =>
        sql`UPDATE payment_codes SET reserved_by_transfer_id = NULL
            WHERE code = ${code} AND reserved_by_transfer_id = ${transferId}`.pipe(
          Effect.asVoid,
          orUnavailable("paymentCodes.release")
        ),
      markUsed: (code, use) =>
        updated(
          "paymentCodes.markUsed",
          sql`UPDATE payment_codes
              SET used_at = ${use.usedAt}, used_by_transfer_id = ${use.transferId}, reserved_by_transfer_id = NULL
              WHERE code = ${code} AND used_at IS NULL
                AND (reserved_by_transfer_id IS NULL OR reserved_by_transfer_id = ${use.transferId})
              RETURNING *`
        )
    })
  })
)

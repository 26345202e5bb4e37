import { CardAuthorization, CardAuthorizationsRepo } from "@svc/domain"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, orUnavailable, SafeIntegerColumn } from "../shared/index.ts"

const Row = Schema.Struct({
  ...CardAuthorization.fields,
  amount: SafeIntegerColumn,
  heldAmount: SafeIntegerColumn
})

const COLUMNS =
  "token, card_token, team_id, mode, intent_id, status, decline_reason, amount, currency, merchant_descriptor, " +
  "merchant_mcc, merchant_country, hold_transaction_id, held_amount, created_at, updated_at"

/** CardAuthorizationsRepo on Postgres, keyed by the issuer's token: a second insert of a token stores nothing. */
export const CardAuthorizationsRepoPg = Layer.effect(
  CardAuthorizationsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(COLUMNS)
    return CardAuthorizationsRepo.of({
      find: (token) =>
        sql`SELECT ${columns} FROM card_authorizations WHERE token = ${token}`.pipe(
          orUnavailable("cardAuthorizations.find"),
          Effect.flatMap(decodeFirst(Row, "cardAuthorizations.find"))
        ),
      insert: (a) =>
        sql`INSERT INTO card_authorizations ${sql.insert({
          token: a.token,
          card_token: a.cardToken,
          team_id: a.teamId,
          mode: a.mode,
          intent_id: a.intentId,
          status: a.status,
          decline_reason: a.declineReason,
          amount: a.amount,
          currency: a.currency,
          merchant_descriptor: a.merchantDescriptor,
          merchant_mcc: a.merchantMcc,
          merchant_country: a.merchantCountry,
          hold_transaction_id: a.holdTransactionId,
          held_amount: a.heldAmount,
          created_at: a.createdAt,
          updated_at: a.updatedAt
        })} ON CONFLICT (token) DO NOTHING RETURNING 1 AS inserted`.pipe(
          Effect.map((rows) => rows.length > 0),
          orUnavailable("cardAuthorizations.insert")
        ),
      update: (token, from, u) =>
        sql`UPDATE card_authorizations
            SET status = ${u.status}, held_amount = ${u.heldAmount}, hold_transaction_id = ${u.holdTransactionId},
                updated_at = ${u.updatedAt}
            WHERE token = ${token} AND status IN ${sql.in(from)}
            RETURNING ${columns}`.pipe(
          orUnavailable("cardAuthorizations.update"),
          Effect.flatMap(decodeFirst(Row, "cardAuthorizations.update"))
        )
    })
  })
)

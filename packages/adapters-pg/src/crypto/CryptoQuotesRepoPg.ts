import { CryptoQuote, CryptoQuotesRepo } from "@svc/domain"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, orUnavailable, SafeIntegerColumn } from "../shared/index.ts"

const Row = Schema.Struct({
  ...CryptoQuote.fields,
  amount: SafeIntegerColumn,
  serviceFee: SafeIntegerColumn,
  networkFee: SafeIntegerColumn,
  amountDelivered: SafeIntegerColumn
})

const COLUMNS =
  "id, team_id, mode, spending_key_id, destination_id, network, asset, address, amount, currency, service_fee, " +
  "network_fee, amount_delivered, token_amount, decimals, expires_at, created_at, payout_id, used_at"

/** CryptoQuotesRepo on Postgres; a trigger refuses any change but the first use, and any deletion. */
export const CryptoQuotesRepoPg = Layer.effect(
  CryptoQuotesRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(COLUMNS)
    return CryptoQuotesRepo.of({
      insert: (q) =>
        sql`INSERT INTO crypto_quotes ${sql.insert({
          id: q.id,
          team_id: q.teamId,
          mode: q.mode,
          spending_key_id: q.spendingKeyId,
          destination_id: q.destinationId,
          network: q.network,
          asset: q.asset,
          address: q.address,
          amount: q.amount,
          currency: q.currency,
          service_fee: q.serviceFee,
          network_fee: q.networkFee,
          amount_delivered: q.amountDelivered,
          token_amount: q.tokenAmount,
          decimals: q.decimals,
          expires_at: q.expiresAt,
          created_at: q.createdAt,
          payout_id: q.payoutId,
          used_at: q.usedAt
        })}`.pipe(Effect.asVoid, orUnavailable("cryptoQuotes.insert")),
      find: (id) =>
        sql`SELECT ${columns} FROM crypto_quotes WHERE id = ${id}`.pipe(
          orUnavailable("cryptoQuotes.find"),
          Effect.flatMap(decodeFirst(Row, "cryptoQuotes.find"))
        ),
      lock: (id) =>
        sql`SELECT ${columns} FROM crypto_quotes WHERE id = ${id} FOR UPDATE`.pipe(
          orUnavailable("cryptoQuotes.lock"),
          Effect.flatMap(decodeFirst(Row, "cryptoQuotes.lock"))
        ),
      markUsed: (id, payoutId, usedAt) =>
        sql`UPDATE crypto_quotes SET payout_id = ${payoutId}, used_at = ${usedAt}
            WHERE id = ${id} AND used_at IS NULL
            RETURNING ${columns}`.pipe(
          orUnavailable("cryptoQuotes.markUsed"),
          Effect.flatMap(decodeFirst(Row, "cryptoQuotes.markUsed"))
        )
    })
  })
)

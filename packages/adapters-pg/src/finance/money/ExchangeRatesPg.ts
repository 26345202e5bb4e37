import { ExchangeRate, ExchangeRates } from "@svc/domain"
import { Array as Arr, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, decodeRows, orUnavailable } from "../../shared/index.ts"

const COLUMNS = "team_id, base, quote, rate::text AS rate, valid_on::text AS valid_on, updated_at"

/** ExchangeRates on Postgres: the `exchange_rates` table the team fills (the rate kept as an exact numeric). */
export const ExchangeRatesPg = Layer.effect(
  ExchangeRates,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal(COLUMNS)
    return ExchangeRates.of({
      put: (rates) => {
        const rows = rates.map(
          (r): Record<string, unknown> => ({
            team_id: r.teamId,
            base: r.base,
            quote: r.quote,
            rate: r.rate,
            valid_on: r.validOn,
            updated_at: r.updatedAt
          })
        )
        return Arr.isArrayNonEmpty(rows)
          ? sql`
              INSERT INTO exchange_rates ${sql.insert(rows)}
              ON CONFLICT (team_id, base, quote, valid_on)
              DO UPDATE SET rate = EXCLUDED.rate, updated_at = EXCLUDED.updated_at`.pipe(
              Effect.asVoid,
              orUnavailable("exchangeRates.put")
            )
          : Effect.void
      },
      list: (teamId) =>
        sql`SELECT ${columns} FROM exchange_rates WHERE team_id = ${teamId} ORDER BY base, quote, valid_on DESC`.pipe(
          orUnavailable("exchangeRates.list"),
          Effect.flatMap(decodeRows(ExchangeRate, "exchangeRates.list"))
        ),
      rateOn: (teamId, from, to, on) =>
        sql`
          SELECT ${columns} FROM exchange_rates
          WHERE team_id = ${teamId} AND valid_on <= ${on}
            AND ((base = ${from} AND quote = ${to}) OR (base = ${to} AND quote = ${from}))
          ORDER BY valid_on DESC, (base = ${from}) DESC
          LIMIT 1`.pipe(
          orUnavailable("exchangeRates.rateOn"),
          Effect.flatMap(decodeFirst(ExchangeRate, "exchangeRates.rateOn"))
        ),
      removePair: (teamId, base, quote) =>
        sql`DELETE FROM exchange_rates WHERE team_id = ${teamId} AND base = ${base} AND quote = ${quote} RETURNING 1`.pipe(
          Effect.map((rows) => rows.length),
          orUnavailable("exchangeRates.removePair")
        )
    })
  })
)

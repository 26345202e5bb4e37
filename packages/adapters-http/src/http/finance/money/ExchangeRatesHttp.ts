import { ExchangeRateTable, exchangeRateView } from "@svc/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../../api/Api.ts"
import { orServiceUnavailable, principalTeamId } from "../../shared/index.ts"

export const ExchangeRatesHttp = HttpApiBuilder.group(Api, "exchangeRates", (handlers) =>
  Effect.gen(function* () {
    const table = yield* ExchangeRateTable
    return handlers
      .handle("list", () =>
        Effect.gen(function* () {
          const teamId = yield* principalTeamId
          return { rates: (yield* table.list(teamId)).map(exchangeRateView) }
        }).pipe(orServiceUnavailable)
      )
      .handle("set", ({ payload }) =>
        Effect.gen(function* () {
          const teamId = yield* principalTeamId
          return { rates: (yield* table.set(teamId, payload.rates)).map(exchangeRateView) }
        }).pipe(orServiceUnavailable)
      )
      .handle("deletePair", ({ params }) =>
        Effect.gen(function* () {
          const teamId = yield* principalTeamId
          return { deleted: yield* table.removePair(teamId, params.base, params.quote) }
        }).pipe(orServiceUnavailable)
      )
  })
)

import { CalendarDate, ExchangeRateView, KnownCurrency, RateDecimal } from "@svc/domain/model"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { CommonErrors, Forbidden, PlatformAuth, RequiredScope } from "../../shared/index.ts"

/** A rate of the team's table. */
export const ExchangeRateResponse = ExchangeRateView

const RateInput = Schema.Struct({
  base: KnownCurrency,
  quote: KnownCurrency,
  rate: RateDecimal,
  validOn: CalendarDate
}).check(
  Schema.makeFilter((r: { readonly base: string; readonly quote: string }) =>
    r.base === r.quote ? { path: ["quote"], issue: "expected a currency other than base" } : true
  )
)

export const SetExchangeRatesRequest = Schema.Struct({
  rates: Schema.Array(RateInput).check(
    Schema.isMinLength(1, { message: "expected 1 to 100 rates" }),
    Schema.isMaxLength(100, { message: "expected 1 to 100 rates" })
  )
})

/** The team's whole rate table, as one resource (not a paged list). */
const RateTable = Schema.Struct({ rates: Schema.Array(ExchangeRateResponse) })
const errors = [...CommonErrors, Forbidden] as const

/** The exchange rates a team fills in itself (no rates are fetched from anywhere). */
export class ExchangeRatesApi extends HttpApiGroup.make("exchangeRates")
  .add(
    HttpApiEndpoint.get("list", "/exchange-rates", { success: RateTable, error: errors })
      .annotate(RequiredScope, "teams.read")
      .annotate(OpenApi.Summary, "List exchange rates")
      .annotate(
        OpenApi.Description,
        "The team's table of exchange rates by base, quote, then newest `validOn` first. A rate holds from its " +
          "`validOn` day until the next of the same pair, and converts either way round."
      ),
    HttpApiEndpoint.put("set", "/exchange-rates", {
      payload: SetExchangeRatesRequest,
      success: RateTable,
      error: errors
    })
      .annotate(RequiredScope, "teams.write")
      .annotate(OpenApi.Summary, "Set exchange rates")
      .annotate(
        OpenApi.Description,
        "Sets up to 100 rates at once (`rate` as exact decimal text: units of `quote` for one `base`); a rate of the " +
          "same pair and day is replaced. Answers the whole table. Conversions round half away from zero."
      ),
    HttpApiEndpoint.delete("deletePair", "/exchange-rates/:base/:quote", {
      params: { base: KnownCurrency, quote: KnownCurrency },
      success: Schema.Struct({ deleted: Schema.Int }),
      error: errors
    })
      .annotate(RequiredScope, "teams.write")
      .annotate(OpenApi.Summary, "Delete a currency pair's rates")
      .annotate(OpenApi.Description, "Deletes every rate from `base` to `quote` (not the other direction).")
  )
  .middleware(PlatformAuth) {}

import { Option, Schema } from "effect"
import { TeamId } from "../../shared/model.ts"
import { CalendarDate } from "./CalendarDate.ts"
import { exponentOf } from "./Currencies.ts"
import { type Decimal, decimalOf, divideRounded, KnownCurrency } from "./MoneyRules.ts"

/** An exchange rate as exact positive decimal text: units of the quote currency for one unit of the base. */
export const RateDecimal = Schema.String.check(
  Schema.isPattern(/^\d{1,12}(?:\.\d{1,12})?$/u, {
    message: "expected a positive decimal rate with at most 12 digits before and after the point, e.g. 1.0845"
  }),
  Schema.makeFilter((text: string) => (decimalOf(text)?.digits ?? 0n) > 0n, { message: "expected a rate above 0" })
)
export type RateDecimal = typeof RateDecimal.Type

/** A rate the team set: from `validOn` (inclusive) until the next rate of the same pair, one `base` is `rate` `quote`. */
export const ExchangeRate = Schema.Struct({
  teamId: TeamId,
  base: KnownCurrency,
  quote: KnownCurrency,
  rate: RateDecimal,
  validOn: CalendarDate,
  updatedAt: Schema.String
})
export type ExchangeRate = typeof ExchangeRate.Type

/** An exchange rate as the API shows it. */
export const ExchangeRateView = Schema.Struct({
  base: Schema.String,
  quote: Schema.String,
  rate: Schema.String,
  validOn: Schema.String,
  updatedAt: Schema.String
})
export type ExchangeRateView = typeof ExchangeRateView.Type

/** The client view of a rate. */
export const exchangeRateView = (rate: ExchangeRate): ExchangeRateView => ({
  base: rate.base,
  quote: rate.quote,
  rate: rate.rate,
  validOn: rate.validOn,
  updatedAt: rate.updatedAt
})

const ONE: Decimal = { digits: 1n, scale: 0 }

/**
 * Converts minor units of `from` into minor units of `to` at a rate between the two currencies (stated either way
 * round: a USD→EUR rate also converts EUR to USD by its inverse), exactly, rounded half away from zero once. None when
 * the rate is not between these two currencies.
 */
export const convertMinor = (
  amountMinor: number,
  from: string,
  to: string,
  rate: Pick<ExchangeRate, "base" | "quote" | "rate">
): Option.Option<number> => {
  if (from === to) return Option.some(amountMinor)
  const decimal = decimalOf(rate.rate) ?? ONE
  const scaled = 10n ** BigInt(decimal.scale)
  let numerator: bigint
  let denominator: bigint
  if (rate.base === from && rate.quote === to) {
    numerator = decimal.digits
    denominator = scaled
  } else if (rate.base === to && rate.quote === from) {
    numerator = scaled
    denominator = decimal.digits
  } else {
    return Option.none()
  }
  const amount = BigInt(amountMinor) * numerator * 10n ** BigInt(exponentOf(to))
  return Option.some(Number(divideRounded(amount, denominator * 10n ** BigInt(exponentOf(from)))))
}

/** A decimal rate in its shortest form (`1.0900` is `1.09`, `2.0` is `2`), so every store shows it alike. */
export const canonicalRate = (rate: string): string => {
  const decimal = decimalOf(rate) ?? ONE
  const text = decimal.digits.toString().padStart(decimal.scale + 1, "0")
  return decimal.scale === 0 ? text : `${text.slice(0, -decimal.scale)}.${text.slice(-decimal.scale)}`
}

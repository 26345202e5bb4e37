import { Schema } from "effect"

/** An ISO 4217 currency code, upper case. */
export const Currency = Schema.String.check(
  Schema.isPattern(/^[A-Z]{3}$/u, { message: "expected an ISO 4217 currency code in upper case, e.g. USD" })
)
export type Currency = typeof Currency.Type

/** What an amount with decimals is told (the commonest mistake: 19.99 for 19.99 USD). */
const MINOR_UNITS_MESSAGE = "amounts are integers in minor units: 1999 for 19.99 USD"

/** A whole number of minor units; anything else is refused with `MINOR_UNITS_MESSAGE`. */
const WholeMinorUnits = Schema.Number.check(Schema.isInt({ message: MINOR_UNITS_MESSAGE }))

/** A non-negative amount in minor units (cents), a safe integer. */
export const AmountMinor = WholeMinorUnits.check(
  Schema.isBetween(
    { minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
    { message: "expected a non-negative integer amount in minor units" }
  )
)
export type AmountMinor = typeof AmountMinor.Type

/** A strictly positive amount in minor units. */
export const PositiveAmountMinor = WholeMinorUnits.check(
  Schema.isBetween(
    { minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
    { message: "expected a positive integer amount in minor units" }
  )
).annotate({
  description: "The amount in minor units of the currency, a positive integer: 1999 is 19.99 USD, 500 is 500 JPY.",
  examples: [1999]
})

/** Live and test mode are separate worlds. */
export const Mode = Schema.Literals(["live", "test"]).annotate({
  description: "`live` moves real money; `test` is a separate sandbox world, chosen by the credential.",
  examples: ["live"]
})
export type Mode = typeof Mode.Type

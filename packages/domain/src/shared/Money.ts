import { Schema } from "effect"

/** An ISO 4217 currency code, upper case. */
export const Currency = Schema.String.check(
  Schema.isPattern(/^[A-Z]{3}$/u, { message: "expected an ISO 4217 currency code in upper case, e.g. USD" })
)
export type Currency = typeof Currency.Type

/** A non-negative amount in minor units (cents), a safe integer. */
export const AmountMinor = Schema.Int.check(
  Schema.isBetween(
    { minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
    { message: "expected a non-negative integer amount in minor units" }
  )
)
export type AmountMinor = typeof AmountMinor.Type

/** A strictly positive amount in minor units. */
export const PositiveAmountMinor = Schema.Int.check(
  Schema.isBetween(
    { minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
    { message: "expected a positive integer amount in minor units" }
  )
)

/** Live and test mode are separate worlds. */
export const Mode = Schema.Literals(["live", "test"])
export type Mode = typeof Mode.Type

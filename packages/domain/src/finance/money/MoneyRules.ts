import { Result, Schema } from "effect"
import { Currency } from "../../shared/model.ts"
import { exponentOf, isKnownCurrency } from "./Currencies.ts"

/** An ISO 4217 currency from the table of active currencies (refuses well-formed codes such as `XYZ`). */
export const KnownCurrency = Currency.annotate({
  description: "An ISO 4217 currency code the service knows, in upper case.",
  examples: ["USD"]
}).check(
  Schema.makeFilter((code: string) => isKnownCurrency(code), { message: "expected a known ISO 4217 currency code" })
)
export type KnownCurrency = typeof KnownCurrency.Type

/**
 * The largest amount in minor units: 15 significant digits, the most a JSON number renders exactly in major units
 * (10 trillion dollars less a cent).
 */
export const MAX_AMOUNT_MINOR = 999_999_999_999_999

/** A signed amount in minor units (expenses negative, income positive), at most 15 digits. */
export const SignedAmountMinor = Schema.Int.check(
  Schema.isBetween(
    { minimum: -MAX_AMOUNT_MINOR, maximum: MAX_AMOUNT_MINOR },
    { message: "expected an integer amount in minor units of at most 15 digits" }
  )
)
export type SignedAmountMinor = typeof SignedAmountMinor.Type

/** An amount given in major units could not be taken as an exact amount of its currency. */
export class InvalidAmount extends Schema.TaggedError<InvalidAmount>()("InvalidAmount", {
  field: Schema.String,
  message: Schema.String
}) {}

/** A decimal number as exact digits: `value = digits / 10^scale`. */
export interface Decimal {
  readonly digits: bigint
  readonly scale: number
}

const DECIMAL = /^([+-])?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/u

/**
 * The exact decimal a JavaScript number or decimal text stands for (a number is read as its shortest round-trip text,
 * so `0.1` is one tenth, not the binary fraction nearest to it); none for NaN, infinities and malformed text.
 */
export const decimalOf = (value: number | string): Decimal | undefined => {
  if (typeof value === "number" && !Number.isFinite(value)) return undefined
  const match = DECIMAL.exec(typeof value === "number" ? String(value) : value.trim())
  if (match === null) return undefined
  const [, sign, whole = "0", fraction = "", exponent = "0"] = match
  const shift = Number(exponent)
  let digits = `${whole}${fraction}`
  let scale = fraction.length - shift
  if (scale < 0) {
    digits = digits + "0".repeat(-scale)
    scale = 0
  }
  while (scale > 0 && digits.endsWith("0")) {
    digits = digits.slice(0, -1)
    scale--
  }
  const magnitude = BigInt(digits === "" ? "0" : digits)
  return { digits: sign === "-" ? -magnitude : magnitude, scale }
}

const MAX_MINOR = BigInt(MAX_AMOUNT_MINOR)

/**
 * A decimal amount in major units (`12.34` USD) as integer minor units (1234). Refused, naming `field`: more decimals
 * than the currency has (`12.345` USD, `1.5` JPY), a value that is not a finite number, an unknown currency, or an
 * amount of more than 15 digits in minor units.
 */
export const parseMajor = (
  value: number | string,
  currency: string,
  field: string
): Result.Result<number, InvalidAmount> => {
  if (!isKnownCurrency(currency)) {
    return Result.fail(new InvalidAmount({ field, message: `${currency} is not a known ISO 4217 currency` }))
  }
  const decimal = decimalOf(value)
  if (decimal === undefined) return Result.fail(new InvalidAmount({ field, message: "expected a decimal number" }))
  const exponent = exponentOf(currency)
  if (decimal.scale > exponent) {
    return Result.fail(
      new InvalidAmount({
        field,
        message:
          exponent === 0
            ? `${currency} amounts have no decimals`
            : `${currency} amounts have at most ${exponent} decimal${exponent === 1 ? "" : "s"}`
      })
    )
  }
  const minor = decimal.digits * 10n ** BigInt(exponent - decimal.scale)
  if (minor < -MAX_MINOR || minor > MAX_MINOR) {
    return Result.fail(new InvalidAmount({ field, message: "the amount is too large" }))
  }
  return Result.succeed(Number(minor))
}

/**
 * Minor units as the decimal number of major units the API answers with (1234 USD is 12.34, 5 JPY is 5, 1234 KWD is
 * 1.234). Exact up to 15 significant digits (every stored amount): the quotient of two exact integers is the double
 * nearest the decimal, and a double prints as the shortest decimal nearest to it, which is that one.
 */
export const renderMinor = (amountMinor: number, currency: string): number => {
  const exponent = exponentOf(currency)
  return exponent === 0 ? amountMinor : amountMinor / 10 ** exponent
}

/** `numerator / denominator` rounded half away from zero (denominator non-zero). */
export const divideRounded = (numerator: bigint, denominator: bigint): bigint => {
  const negative = numerator < 0n !== denominator < 0n
  const n = numerator < 0n ? -numerator : numerator
  const d = denominator < 0n ? -denominator : denominator
  const quotient = n / d
  const rounded = (n % d) * 2n >= d ? quotient + 1n : quotient
  return negative ? -rounded : rounded
}

/**
 * The tax an amount includes at a percentage rate (`amount * rate / (100 + rate)`), in minor units rounded half away
 * from zero; 0 without a rate. Net of tax is `amount - taxIncludedMinor(amount, rate)`.
 */
export const taxIncludedMinor = (amountMinor: number, ratePercent: number | null): number => {
  if (ratePercent === null || ratePercent === 0) return 0
  const rate = decimalOf(ratePercent)
  if (rate === undefined) return 0
  const scale = 10n ** BigInt(rate.scale)
  return Number(divideRounded(BigInt(amountMinor) * rate.digits, 100n * scale + rate.digits))
}

/** Minor units as exact decimal text in major units with all the currency's decimals (1234 USD is `12.34`, 5 JPY `5`). */
export const minorText = (amountMinor: number, currency: string): string => {
  const exponent = exponentOf(currency)
  const digits = String(Math.abs(amountMinor)).padStart(exponent + 1, "0")
  const whole = digits.slice(0, digits.length - exponent)
  const text = exponent === 0 ? whole : `${whole}.${digits.slice(digits.length - exponent)}`
  return amountMinor < 0 ? `-${text}` : text
}

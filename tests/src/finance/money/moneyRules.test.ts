import { assert, describe, it } from "@effect/vitest"
import {
  CalendarDate,
  canonicalRate,
  convertMinor,
  currencyExponent,
  decimalOf,
  divideRounded,
  KnownCurrency,
  MAX_AMOUNT_MINOR,
  parseMajor,
  renderMinor,
  taxIncludedMinor
} from "@svc/domain"
import { Option, Result, Schema } from "effect"
import fc from "fast-check"

const parsed = (value: number | string, currency: string) => parseMajor(value, currency, "amount")

const refusal = (value: number | string, currency: string) => {
  const result = parsed(value, currency)
  assert.isTrue(Result.isFailure(result), `${value} ${currency} should be refused`)
  return Result.isFailure(result) ? result.failure : undefined
}

const CURRENCIES = ["USD", "EUR", "JPY", "KWD", "CLF", "KRW", "BHD"] as const

describe("money rules", () => {
  it("knows the ISO 4217 exponents and refuses codes outside the table", () => {
    assert.deepStrictEqual(
      ["JPY", "USD", "EUR", "KWD", "BHD", "CLF", "XYZ"].map((c) => Option.getOrNull(currencyExponent(c))),
      [0, 2, 2, 3, 3, 4, null]
    )
    assert.isTrue(Schema.is(KnownCurrency)("SEK"))
    assert.isFalse(Schema.is(KnownCurrency)("XYZ"))
    assert.isFalse(Schema.is(KnownCurrency)("usd"))
  })

  it("parses major units into exact minor units", () => {
    assert.deepStrictEqual(parsed(12.34, "USD"), Result.succeed(1234))
    assert.deepStrictEqual(parsed(0.01, "USD"), Result.succeed(1))
    assert.deepStrictEqual(parsed(99_999.99, "USD"), Result.succeed(9_999_999))
    assert.deepStrictEqual(parsed(-0.1, "EUR"), Result.succeed(-10))
    assert.deepStrictEqual(parsed(1.1, "USD"), Result.succeed(110), "1.1 is one and one tenth, not the binary fraction")
    assert.deepStrictEqual(parsed(500, "JPY"), Result.succeed(500))
    assert.deepStrictEqual(parsed(1.234, "KWD"), Result.succeed(1234))
    assert.deepStrictEqual(parsed("12.50", "USD"), Result.succeed(1250), "trailing zeros are not decimals")
    assert.deepStrictEqual(parsed(1e-2, "USD"), Result.succeed(1))
    assert.deepStrictEqual(parsed(2e3, "USD"), Result.succeed(200_000))
  })

  it("refuses more decimals than the currency has, naming the field", () => {
    const usd = refusal(12.345, "USD")
    assert.strictEqual(usd?.field, "amount")
    assert.strictEqual(usd?.message, "USD amounts have at most 2 decimals")
    assert.strictEqual(refusal(1.5, "JPY")?.message, "JPY amounts have no decimals")
    assert.strictEqual(refusal(0.0001, "KWD")?.message, "KWD amounts have at most 3 decimals")
    assert.strictEqual(refusal(1e-7, "USD")?.message, "USD amounts have at most 2 decimals")
    assert.strictEqual(refusal(Number.NaN, "USD")?.message, "expected a decimal number")
    assert.strictEqual(refusal(Number.POSITIVE_INFINITY, "USD")?.message, "expected a decimal number")
    assert.strictEqual(refusal("12,5", "USD")?.message, "expected a decimal number")
    assert.strictEqual(refusal(1, "XYZ")?.message, "XYZ is not a known ISO 4217 currency")
    assert.strictEqual(refusal(1e20, "USD")?.message, "the amount is too large")
    assert.strictEqual(refusal(10_000_000_000_000, "USD")?.message, "the amount is too large")
    assert.deepStrictEqual(parsed(9_999_999_999_999.99, "USD"), Result.succeed(MAX_AMOUNT_MINOR))
  })

  it("renders minor units as the exact decimal of major units", () => {
    assert.strictEqual(renderMinor(1234, "USD"), 12.34)
    assert.strictEqual(renderMinor(1, "USD"), 0.01)
    assert.strictEqual(renderMinor(9_999_999, "USD"), 99_999.99)
    assert.strictEqual(renderMinor(-10, "EUR"), -0.1)
    assert.strictEqual(renderMinor(500, "JPY"), 500)
    assert.strictEqual(renderMinor(1234, "KWD"), 1.234)
    assert.strictEqual(JSON.stringify(renderMinor(110, "USD")), "1.1")
  })

  it("round trips: rendering then parsing gives back the minor units, for every currency", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -MAX_AMOUNT_MINOR, max: MAX_AMOUNT_MINOR }),
        fc.constantFrom(...CURRENCIES),
        (minor, currency) => {
          assert.deepStrictEqual(parsed(renderMinor(minor, currency), currency), Result.succeed(minor))
          assert.deepStrictEqual(
            parsed(JSON.parse(JSON.stringify(renderMinor(minor, currency))), currency),
            Result.succeed(minor)
          )
        }
      ),
      { numRuns: 2_000 }
    )
  })

  it("round trips: a decimal with the currency's digits parses to minor units that render as the same number", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...CURRENCIES),
        fc.bigInt({ min: -BigInt(MAX_AMOUNT_MINOR), max: BigInt(MAX_AMOUNT_MINOR) }),
        (currency, digits) => {
          const exponent = Option.getOrThrow(currencyExponent(currency))
          const negative = digits < 0n
          const text = (negative ? -digits : digits).toString().padStart(exponent + 1, "0")
          const decimal = `${negative ? "-" : ""}${exponent === 0 ? text : `${text.slice(0, -exponent)}.${text.slice(-exponent)}`}`
          const minor = parsed(decimal, currency)
          assert.deepStrictEqual(minor, Result.succeed(Number(digits)))
          assert.strictEqual(renderMinor(Number(digits), currency), Number(decimal))
        }
      ),
      { numRuns: 2_000 }
    )
  })

  it("refuses every amount with one digit more than its currency has", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...CURRENCIES),
        fc.integer({ min: 1, max: 9 }),
        fc.nat(10_000),
        (currency, last, whole) => {
          const exponent = Option.getOrThrow(currencyExponent(currency))
          const decimal = `${whole}.${"0".repeat(exponent)}${last}`
          assert.isTrue(Result.isFailure(parsed(decimal, currency)))
        }
      )
    )
  })

  it("divides rounding half away from zero", () => {
    assert.deepStrictEqual(
      [
        divideRounded(5n, 2n),
        divideRounded(-5n, 2n),
        divideRounded(4n, 3n),
        divideRounded(-4n, 3n),
        divideRounded(5n, -2n)
      ],
      [3n, -3n, 1n, -1n, -3n]
    )
    assert.deepStrictEqual(decimalOf("0.10"), { digits: 1n, scale: 1 })
    assert.deepStrictEqual(["1.0900", "2.0", "0.000100", "151.5", "3"].map(canonicalRate), [
      "1.09",
      "2",
      "0.0001",
      "151.5",
      "3"
    ])
  })

  it("computes the tax an amount includes at a percentage rate", () => {
    // 125.00 at 25%: 12500 * 25 / 125 = 2500
    assert.strictEqual(taxIncludedMinor(12_500, 25), 2_500)
    // 10.00 at 7.5%: 1000 * 7.5 / 107.5 = 69.767... -> 70
    assert.strictEqual(taxIncludedMinor(1_000, 7.5), 70)
    // -10.00 at 7.5%: -69.767... -> -70 (away from zero)
    assert.strictEqual(taxIncludedMinor(-1_000, 7.5), -70)
    assert.strictEqual(taxIncludedMinor(1_000, null), 0)
    assert.strictEqual(taxIncludedMinor(1_000, 0), 0)
  })

  it("converts between currencies exactly, either way round, rounding once half away from zero", () => {
    const usdEur = { base: "USD", quote: "EUR", rate: "0.9215" }
    // 100.00 USD * 0.9215 = 92.15 EUR
    assert.deepStrictEqual(convertMinor(10_000, "USD", "EUR", usdEur), Option.some(9_215))
    // 1.00 EUR / 0.9215 = 1.08518... USD -> 1.09
    assert.deepStrictEqual(convertMinor(100, "EUR", "USD", usdEur), Option.some(109))
    // 0.05 USD * 0.9215 = 0.046075 EUR -> 0.05; -0.05 -> -0.05
    assert.deepStrictEqual(convertMinor(5, "USD", "EUR", usdEur), Option.some(5))
    assert.deepStrictEqual(convertMinor(-5, "USD", "EUR", usdEur), Option.some(-5))
    // 10.00 USD at 151.5 JPY = 1515 JPY (exponents 2 and 0)
    assert.deepStrictEqual(
      convertMinor(1_000, "USD", "JPY", { base: "USD", quote: "JPY", rate: "151.5" }),
      Option.some(1_515)
    )
    // 1.000 KWD at 3.25 USD = 3.25 USD (exponents 3 and 2)
    assert.deepStrictEqual(
      convertMinor(1_000, "KWD", "USD", { base: "KWD", quote: "USD", rate: "3.25" }),
      Option.some(325)
    )
    assert.deepStrictEqual(convertMinor(100, "GBP", "EUR", usdEur), Option.none())
    assert.deepStrictEqual(convertMinor(100, "GBP", "GBP", usdEur), Option.some(100))
  })

  it("accepts only real calendar dates", () => {
    assert.isTrue(Schema.is(CalendarDate)("2024-02-29"))
    assert.isFalse(Schema.is(CalendarDate)("2023-02-29"))
    assert.isFalse(Schema.is(CalendarDate)("2026-13-01"))
    assert.isFalse(Schema.is(CalendarDate)("2026-1-01"))
    assert.isFalse(Schema.is(CalendarDate)("2026-04-31"))
  })
})

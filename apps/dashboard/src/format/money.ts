import { exponentOf } from "@svc/domain/model"

const formatters = new Map<string, Intl.NumberFormat>()

const formatterOf = (currency: string, locale: string | undefined) => {
  const key = `${locale ?? ""}/${currency}`
  let formatter = formatters.get(key)
  if (formatter === undefined) {
    const digits = exponentOf(currency)
    formatter = new Intl.NumberFormat(locale, {
      style: "currency",
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits
    })
    formatters.set(key, formatter)
  }
  return formatter
}

/**
 * An amount in minor units as major units with its currency, in the reader's locale unless `locale` is given (1234 USD
 * → "$12.34"); the digits are the currency's ISO 4217 exponent (JPY none, KWD three).
 */
export const formatMoney = (amountMinor: number, currency: string, locale?: string): string =>
  formatterOf(currency, locale).format(amountMinor / 10 ** exponentOf(currency))

/** A decimal amount in major units as the API answers it (12.34 USD) as minor units (1234), rounded to the unit. */
export const fromMajor = (amountMajor: number, currency: string): number =>
  Math.round(amountMajor * 10 ** exponentOf(currency))

/** Major units typed in a form (e.g. "12.34") as minor units of the currency; undefined when it is not an amount. */
export const parseMajor = (text: string, currency: string): number | undefined => {
  const trimmed = text.trim().replace(",", ".")
  if (!/^\d+(\.\d+)?$/u.test(trimmed)) return undefined
  const digits = exponentOf(currency)
  const [whole = "0", fraction = ""] = trimmed.split(".")
  if (fraction.length > digits) return undefined
  return Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, "0") || "0")
}

/** Minor units as the major-unit text a form field shows (1234 USD → "12.34"). */
export const toMajorText = (amountMinor: number, currency: string): string =>
  (amountMinor / 10 ** exponentOf(currency)).toFixed(exponentOf(currency))

/**
 * An amount in major units, as the business-finance routes answer it (12.34 USD), with its currency in the reader's
 * locale unless `locale` is given; the digits are the currency's exponent, as `formatMoney`'s.
 */
export const formatMajorMoney = (amountMajor: number, currency: string, locale?: string): string =>
  formatterOf(currency, locale).format(amountMajor)

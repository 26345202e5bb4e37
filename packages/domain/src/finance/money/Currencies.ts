import { Option } from "effect"

const EXPONENT_0 = "BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF"
const EXPONENT_3 = "BHD IQD JOD KWD LYD OMR TND"
const EXPONENT_4 = "CLF UYW"
const EXPONENT_2 =
  "AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BOV BRL BSD BTN BWP BYN BZD CAD CDF CHE " +
  "CHF CHW CNY COP COU CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GTQ GYD HKD HNL HTG " +
  "HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR LRD LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK " +
  "MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE " +
  "SOS SRD SSP STN SVC SYP SZL THB TJS TMT TOP TRY TTD TWD TZS UAH USD USN UYU UZS VED VES WST XCD XCG YER ZAR ZMW ZWG"

const table = (codes: string, exponent: number): Array<readonly [string, number]> =>
  codes.split(" ").map((code) => [code, exponent] as const)

/**
 * The active ISO 4217 currencies and their exponents (minor-unit digits): the fixed table every amount is stored and
 * rendered by. A currency outside it is refused wherever an amount or a currency is accepted.
 */
export const CURRENCY_EXPONENTS: ReadonlyMap<string, number> = new Map([
  ...table(EXPONENT_0, 0),
  ...table(EXPONENT_2, 2),
  ...table(EXPONENT_3, 3),
  ...table(EXPONENT_4, 4)
])

/** The ISO 4217 exponent of a currency (JPY 0, USD 2, KWD 3), none for a code outside the table. */
export const currencyExponent = (currency: string): Option.Option<number> =>
  Option.fromNullishOr(CURRENCY_EXPONENTS.get(currency))

/** Whether the code is an active ISO 4217 currency. */
export const isKnownCurrency = (currency: string): boolean => CURRENCY_EXPONENTS.has(currency)

/** The exponent of a currency known to be in the table (stored amounts are validated on the way in). */
export const exponentOf = (currency: string): number => CURRENCY_EXPONENTS.get(currency) ?? 2

import { exponentOf, isKnownCurrency, parseMajor } from "@svc/domain/model"
import { Effect, Option } from "effect"
import { Flag } from "effect/cli"
import { usage } from "./Failure.ts"

/** An exact amount in minor units of its currency. */
interface Money {
  readonly amount: number
  readonly currency: string
}

/** The amount flags as given: `--amount` (major units), `--amount-minor` (minor units) and `--currency`. */
export interface AmountFlags {
  readonly amount: Option.Option<string>
  readonly amountMinor: Option.Option<string>
  readonly currency: Option.Option<string>
}

/** `--amount`, `--amount-minor` and `--currency`, shared by every command that moves money. */
export const amountFlags = {
  amount: Flag.String("amount").pipe(
    Flag.withDescription("The amount in major units, e.g. 19.99 (at most the currency's decimals)"),
    Flag.optional
  ),
  amountMinor: Flag.String("amount-minor").pipe(
    Flag.withDescription("The amount in minor units, e.g. 1999 (instead of --amount)"),
    Flag.optional
  ),
  currency: Flag.String("currency").pipe(Flag.withDescription("The ISO 4217 currency, e.g. USD"), Flag.optional)
}

const WHOLE = /^\d{1,15}$/u

/**
 * The amount the flags give, never guessed: exactly one of `--amount` and `--amount-minor`, a currency (the flag,
 * else `defaultCurrency`), and no more decimals than the currency has. Fails with a usage error naming the flag.
 */
export const amountOf = (flags: AmountFlags, defaultCurrency?: string) =>
  Effect.gen(function* () {
    const currency = Option.getOrUndefined(Option.map(flags.currency, (c) => c.trim().toUpperCase())) ?? defaultCurrency
    if (Option.isSome(flags.amount) && Option.isSome(flags.amountMinor)) {
      return yield* usage("give either --amount or --amount-minor, not both")
    }
    if (Option.isNone(flags.amount) && Option.isNone(flags.amountMinor)) {
      return yield* usage("give the amount: --amount 19.99 --currency USD, or --amount-minor 1999 --currency USD")
    }
    if (currency === undefined) return yield* usage("--currency: give the currency of the amount, e.g. --currency USD")
    if (!isKnownCurrency(currency)) return yield* usage(`--currency: ${currency} is not a known ISO 4217 currency`)
    if (Option.isSome(flags.amountMinor)) {
      const text = flags.amountMinor.value.trim()
      if (!WHOLE.test(text) || Number(text) === 0) {
        return yield* usage(`--amount-minor: expected a positive whole number of minor units, got "${text}"`)
      }
      return { amount: Number(text), currency } satisfies Money
    }
    const text = Option.getOrElse(flags.amount, () => "")
    const parsed = parseMajor(text, currency, "--amount")
    if (parsed._tag === "Failure") return yield* usage(`${parsed.failure.field}: ${parsed.failure.message}`)
    if (parsed.success <= 0) return yield* usage(`--amount: expected a positive amount, got "${text}"`)
    return { amount: parsed.success, currency } satisfies Money
  })

/** Minor units in major units with the currency and all its decimals: `USD 19.90`, `JPY 500`, `KWD 1.234`. */
export const formatMoney = (amountMinor: number, currency: string): string => {
  const exponent = exponentOf(currency)
  const digits = String(Math.abs(amountMinor)).padStart(exponent + 1, "0")
  const whole = digits.slice(0, digits.length - exponent)
  const fraction = exponent === 0 ? "" : `.${digits.slice(digits.length - exponent)}`
  return `${currency} ${amountMinor < 0 ? "-" : ""}${whole}${fraction}`
}

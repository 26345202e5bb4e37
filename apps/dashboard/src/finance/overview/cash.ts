import type { BankAccount } from "@svc/sdk"
import { fromMajor } from "../../format/money.ts"

/** The cash of the team in one currency, and the accounts that could not be counted in it. */
export interface Cash {
  readonly amountMinor: number
  readonly counted: number
  readonly uncounted: ReadonlyArray<string>
}

const CASH_TYPES: ReadonlySet<string> = new Set(["depository", "other_asset"])

/**
 * The balances of the enabled depository and other-asset accounts in `currency`, each in its own balance when it is
 * held in it, else in its base balance when that is in it: the cash the runway report divides by the burn.
 */
export const cashOf = (accounts: ReadonlyArray<BankAccount>, currency: string): Cash => {
  let amountMinor = 0
  let counted = 0
  const uncounted: Array<string> = []
  for (const account of accounts) {
    if (!account.enabled || !CASH_TYPES.has(account.type)) continue
    const balance =
      account.currency === currency ? account.balance : account.baseCurrency === currency ? account.baseBalance : null
    if (balance === null) uncounted.push(account.name)
    else {
      amountMinor += fromMajor(balance, currency)
      counted++
    }
  }
  return { amountMinor, counted, uncounted }
}

import { Result, Schema } from "effect"
import type { AccountId } from "../shared/index.ts"

/** One side of a movement: a signed amount in minor units, credit positive. */
export interface EntryInput {
  readonly accountId: AccountId
  readonly amount: number
}

/** The running sums of an account's entries. */
export interface Counters {
  readonly postedSum: number
  readonly pendingSum: number
}

/** An account's balance in minor units, derived from its entries. */
export interface Balance {
  readonly posted: number
  /** Funds reserved by outstanding holds (negative when holds are incoming). */
  readonly pending: number
  readonly available: number
}

/** The entries of a ledger transaction do not form a valid double-entry posting. */
export class UnbalancedTransaction extends Schema.TaggedError<UnbalancedTransaction>()("UnbalancedTransaction", {
  message: Schema.String
}) {}

/** The balance an account's entry sums give. */
export const balanceOf = (counters: Counters): Balance => {
  const pending = 0 - counters.pendingSum
  return { posted: counters.postedSum, pending, available: counters.postedSum - Math.max(pending, 0) }
}

/** Counters after applying entries, posted or pending. */
export const applyEntries = (counters: Counters, amount: number, pending: boolean): Counters =>
  pending
    ? { postedSum: counters.postedSum, pendingSum: counters.pendingSum + amount }
    : { postedSum: counters.postedSum + amount, pendingSum: counters.pendingSum }

/** Checks that entries are non-zero safe integers on distinct accounts of one currency and sum to zero. */
export const validateEntries = (
  entries: ReadonlyArray<EntryInput>,
  currencyOf: (accountId: AccountId) => string | undefined
): Result.Result<string, UnbalancedTransaction> => {
  const fail = (message: string) => Result.fail(new UnbalancedTransaction({ message }))
  if (entries.length < 2) return fail("a ledger transaction needs at least two entries")
  if (new Set(entries.map((e) => e.accountId)).size !== entries.length) return fail("each account may appear once")
  let sum = 0n
  let currency: string | undefined
  for (const entry of entries) {
    if (!Number.isSafeInteger(entry.amount) || entry.amount === 0) return fail("entry amounts are non-zero integers")
    const entryCurrency = currencyOf(entry.accountId)
    if (entryCurrency === undefined) return fail(`unknown account ${entry.accountId}`)
    if (currency !== undefined && entryCurrency !== currency) return fail("all entries must share one currency")
    currency = entryCurrency
    sum += BigInt(entry.amount)
  }
  if (sum !== 0n) return fail(`entries sum to ${sum}, not zero`)
  return Result.succeed(currency as string)
}

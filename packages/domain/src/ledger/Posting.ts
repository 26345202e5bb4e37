import { Result, Schema } from "effect"
import type { AccountId } from "../shared/model.ts"

/** One side of a movement: a signed amount in minor units, credit positive. */
export interface EntryInput {
  readonly accountId: AccountId
  readonly amount: number
}

/** The running sums of an account's entries: posted, and the amounts of outstanding holds out of it and into it. */
export const Counters = Schema.Struct({
  postedSum: Schema.Int,
  pendingOut: Schema.Int,
  pendingIn: Schema.Int
})
export type Counters = typeof Counters.Type

/** The sums of an account without entries. */
export const emptyCounters: Counters = { postedSum: 0, pendingOut: 0, pendingIn: 0 }

/** An account's balance in minor units, derived from its entries. */
export const Balance = Schema.Struct({
  posted: Schema.Int,
  /** Funds reserved by outstanding outgoing holds less those awaited from incoming ones (negative when incoming). */
  pending: Schema.Int,
  /** Posted funds less those reserved by outgoing holds; incoming holds count only once posted. */
  available: Schema.Int
})
export type Balance = typeof Balance.Type

/** The entries of a ledger transaction do not form a valid double-entry posting. */
export class UnbalancedTransaction extends Schema.TaggedError<UnbalancedTransaction>()("UnbalancedTransaction", {
  message: Schema.String
}) {}

/** The balance an account's entry sums give. */
export const balanceOf = (counters: Counters): Balance => ({
  posted: counters.postedSum,
  pending: counters.pendingOut - counters.pendingIn,
  available: counters.postedSum - counters.pendingOut
})

/**
 * Counters after one entry. A pending entry of a hold reserves its amount out of the account (a debit) or awaits it
 * (a credit); one of a hold's resolution (`resolving`) gives back what its hold reserved or awaited.
 */
export const applyEntry = (
  counters: Counters,
  entry: { readonly amount: number; readonly pending: boolean },
  resolving: boolean
): Counters => {
  if (!entry.pending) return { ...counters, postedSum: counters.postedSum + entry.amount }
  return entry.amount < 0 !== resolving
    ? { ...counters, pendingOut: counters.pendingOut - entry.amount }
    : { ...counters, pendingIn: counters.pendingIn + entry.amount }
}

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

import { Result } from "effect"
import type { AccountId } from "../shared/model.ts"
import type { LockedAccount } from "./Accounts.ts"
import { AccountNotFound, InsufficientFunds } from "./LedgerErrors.ts"
import { balanceOf, type EntryInput, type UnbalancedTransaction, validateEntries } from "./Posting.ts"
import type { LedgerTransaction, Movement } from "./Transactions.ts"

/** An entry to record: a signed amount on an account, posted or pending. */
export interface PlannedEntry extends EntryInput {
  readonly pending: boolean
}

/**
 * What a movement records: a transaction posted at once, or a hold (`pending`), in which the debit account gives the
 * amount and the credit account receives it. Id and time are the recorder's.
 */
export const movementPosting = (
  movement: Movement,
  pending: boolean
): {
  readonly base: Omit<LedgerTransaction, "id" | "entries" | "createdAt">
  readonly entries: ReadonlyArray<PlannedEntry>
} => ({
  base: {
    teamId: movement.teamId,
    mode: movement.mode,
    kind: pending ? "pending" : "posted",
    code: movement.code,
    reference: movement.reference,
    pendingId: null
  },
  entries: [
    { accountId: movement.debitAccountId, amount: -movement.amount, pending },
    { accountId: movement.creditAccountId, amount: movement.amount, pending }
  ]
})

/**
 * What resolving a hold records: its pending entries reversed and, when it is posted, the same amounts posted; or,
 * given `amount` (at most what the hold reserves), that amount posted between the same two accounts, the rest
 * released in the same transaction. A partial posting takes a hold of two entries (a movement's).
 */
export const resolutionPosting = (
  hold: LedgerTransaction,
  outcome: "post_pending" | "void_pending",
  amount?: number
): {
  readonly base: Omit<LedgerTransaction, "id" | "entries" | "createdAt">
  readonly entries: ReadonlyArray<PlannedEntry>
} => ({
  base: {
    teamId: hold.teamId,
    mode: hold.mode,
    kind: outcome,
    code: hold.code,
    reference: hold.reference,
    pendingId: hold.id
  },
  entries: [
    ...hold.entries.map((e) => ({ accountId: e.accountId, amount: -e.amount, pending: true })),
    ...(outcome === "post_pending"
      ? hold.entries.map((e) => ({
          accountId: e.accountId,
          amount: amount === undefined ? e.amount : Math.sign(e.amount) * amount,
          pending: false
        }))
      : [])
  ]
})

/** What a hold reserves: the sum of its credits. */
export const heldAmountOf = (hold: LedgerTransaction): number =>
  hold.entries.reduce((sum, e) => (e.amount > 0 ? sum + e.amount : sum), 0)

/**
 * The ledger transaction that records `entries` over accounts read under their locks: every account belongs to the
 * transaction's team and mode, posted and pending entries each balance in one currency, and, when `checkFunds` is set,
 * no spend account's available balance goes below zero. Pure: the caller appends the result.
 */
export const planTransaction = (
  header: Omit<LedgerTransaction, "entries">,
  entries: ReadonlyArray<PlannedEntry>,
  options: { readonly locked: ReadonlyArray<LockedAccount>; readonly checkFunds: boolean }
): Result.Result<LedgerTransaction, UnbalancedTransaction | AccountNotFound | InsufficientFunds> => {
  const byId = new Map(options.locked.map((l) => [l.account.id as string, l]))
  for (const entry of entries) {
    const owner = byId.get(entry.accountId)
    if (owner === undefined || owner.account.teamId !== header.teamId || owner.account.mode !== header.mode) {
      return Result.fail(new AccountNotFound({ accountId: entry.accountId }))
    }
  }
  const currencyOf = (id: AccountId) => byId.get(id)?.account.currency
  let currency = ""
  for (const group of [entries.filter((e) => e.pending), entries.filter((e) => !e.pending)]) {
    if (group.length === 0) continue
    const checked = validateEntries(group, currencyOf)
    if (Result.isFailure(checked)) return Result.fail(checked.failure)
    currency = checked.success
  }
  if (options.checkFunds) {
    for (const entry of entries) {
      const owner = byId.get(entry.accountId)
      if (owner === undefined || entry.amount >= 0 || owner.account.kind !== "spend") continue
      const available = balanceOf(owner.counters).available
      if (available + entry.amount < 0) {
        return Result.fail(new InsufficientFunds({ accountId: entry.accountId, available, amount: -entry.amount }))
      }
    }
  }
  return Result.succeed({
    ...header,
    entries: entries.map((e) => ({ accountId: e.accountId, amount: e.amount, currency, pending: e.pending }))
  })
}

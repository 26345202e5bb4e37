import { Schema } from "effect"
import { AccountId, Currency, Mode, TeamId } from "../shared/model.ts"
import { Balance, Counters } from "./Posting.ts"

/** What an account is for: `spend` holds a team's money and never goes below zero; `settlement` receives spend; `external` is the outside world's side of deposits. */
export const AccountKind = Schema.Literals(["spend", "settlement", "external"])
export type AccountKind = typeof AccountKind.Type

/** The kinds of account a team holds exactly one of per mode and currency. */
export type CurrencyAccountKind = Extract<AccountKind, "settlement" | "external">

/** A ledger account of a team, in one mode and currency. */
export const Account = Schema.Struct({
  id: AccountId,
  teamId: TeamId,
  mode: Mode,
  kind: AccountKind,
  name: Schema.String,
  currency: Currency,
  createdAt: Schema.String
})
export type Account = typeof Account.Type

/** An account with its balance. */
export const AccountWithBalance = Schema.Struct({ ...Account.fields, balance: Balance })
export type AccountWithBalance = typeof AccountWithBalance.Type

/** An account and the sums of its entries, read under a lock inside a transaction. */
export const LockedAccount = Schema.Struct({ account: Account, counters: Counters })
export type LockedAccount = typeof LockedAccount.Type

/**
 * The spend account a credential acts on among a team's accounts of one mode, listed oldest first: the account
 * `accountId`, or the first spend account when the credential names none.
 */
export const pickSpendAccount = <A extends Account>(
  accounts: ReadonlyArray<A>,
  accountId: AccountId | null
): A | undefined => accounts.find((a) => a.kind === "spend" && (accountId === null || a.id === accountId))

import { Schema } from "effect"
import { Mode } from "../shared/index.ts"

/** The account does not exist in this team. */
export class AccountNotFound extends Schema.TaggedError<AccountNotFound>()("AccountNotFound", {
  accountId: Schema.String
}) {}

/** The team has no spend account in this mode (a credential that names none acts on the mode's first). */
export class NoSpendAccount extends Schema.TaggedError<NoSpendAccount>()("NoSpendAccount", {
  teamId: Schema.String,
  mode: Mode
}) {}

/**
 * The team has no settlement account for this mode and currency, so nothing can be spent from its accounts in that
 * currency until one is opened (`Ledger.openTeamAccounts` opens it). HTTP answers 409 `settlement_account_missing`:
 * the team's ledger state refuses the operation; it is neither an outage (503) nor bad input (400), and retrying
 * cannot help until the account exists.
 */
export class SettlementAccountMissing extends Schema.TaggedError<SettlementAccountMissing>()(
  "SettlementAccountMissing",
  { teamId: Schema.String, mode: Mode, currency: Schema.String }
) {}

/** The spend account's available balance does not cover the debit. */
export class InsufficientFunds extends Schema.TaggedError<InsufficientFunds>()("InsufficientFunds", {
  accountId: Schema.String,
  available: Schema.Number,
  amount: Schema.Number
}) {}

/** A transaction with the same code, reference and kind was already recorded. */
export class DuplicateLedgerTransaction extends Schema.TaggedError<DuplicateLedgerTransaction>()(
  "DuplicateLedgerTransaction",
  { code: Schema.String, reference: Schema.String }
) {}

/** The hold does not exist in this team. */
export class HoldNotFound extends Schema.TaggedError<HoldNotFound>()("HoldNotFound", { holdId: Schema.String }) {}

/** The hold was already posted or voided; it resolves exactly once. */
export class HoldAlreadyResolved extends Schema.TaggedError<HoldAlreadyResolved>()("HoldAlreadyResolved", {
  holdId: Schema.String
}) {}

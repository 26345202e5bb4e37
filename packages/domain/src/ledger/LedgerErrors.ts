import { Schema } from "effect"

/** The account does not exist in this team. */
export class AccountNotFound extends Schema.TaggedError<AccountNotFound>()("AccountNotFound", {
  accountId: Schema.String
}) {}

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

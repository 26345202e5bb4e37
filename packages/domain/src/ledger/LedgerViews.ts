import { Schema } from "effect"
import { EXAMPLE_ID, Mode } from "../shared/model.ts"
import { AccountKind, type AccountWithBalance } from "./Accounts.ts"
import { type LedgerTransaction, LedgerTransactionKind } from "./Transactions.ts"

/** A balance in minor units: posted, reserved by pending holds, and available to spend. */
export const BalanceAmounts = Schema.Struct({
  posted: Schema.Int.annotate({
    description: "The posted balance in minor units of the currency (1999 is 19.99 USD).",
    examples: [250000]
  }),
  pending: Schema.Int.annotate({
    description: "What pending holds reserve in minor units of the currency (1999 is 19.99 USD).",
    examples: [1999]
  }),
  available: Schema.Int.annotate({
    description: "What can be spent now, posted minus pending, in minor units of the currency (1999 is 19.99 USD).",
    examples: [248001]
  })
})

/** A spend account as agents see it. */
export const AccountView = Schema.Struct({
  id: Schema.String.annotate({
    description: "The account's id, a UUID.",
    examples: [EXAMPLE_ID]
  }),
  object: Schema.Literal("account").annotate({ description: "Always `account`." }),
  name: Schema.String.annotate({ description: "The account's name.", examples: ["Spend account"] }),
  currency: Schema.String.annotate({ description: "The ISO 4217 code of the account's currency.", examples: ["USD"] }),
  mode: Mode,
  balance: BalanceAmounts.annotate({
    description: "The account's balance in minor units of the currency (1999 is 19.99 USD)."
  })
})
export type AccountView = typeof AccountView.Type

/** The view of an account. */
export const accountView = (account: AccountWithBalance): AccountView => ({
  id: account.id,
  object: "account",
  name: account.name,
  currency: account.currency,
  mode: account.mode,
  balance: account.balance
})

/** Any ledger account of a team: the account view plus what the account is for. */
export const LedgerAccountView = Schema.Struct({
  ...AccountView.fields,
  kind: AccountKind
})
export type LedgerAccountView = typeof LedgerAccountView.Type

/** The view of an account with its kind. */
export const ledgerAccountView = (account: AccountWithBalance): LedgerAccountView => ({
  ...accountView(account),
  kind: account.kind
})

/** The balance of one account. */
export const AccountBalanceView = Schema.Struct({
  accountId: AccountView.fields.id,
  currency: AccountView.fields.currency,
  ...BalanceAmounts.fields
})
export type AccountBalanceView = typeof AccountBalanceView.Type

/** The view of an account's balance. */
export const accountBalanceView = (account: AccountWithBalance): AccountBalanceView => ({
  accountId: account.id,
  currency: account.currency,
  ...account.balance
})

/** A ledger transaction with its entries (credit positive, minor units). */
export const LedgerTransactionView = Schema.Struct({
  id: Schema.String,
  object: Schema.Literal("ledger_transaction"),
  mode: Mode,
  kind: LedgerTransactionKind,
  code: Schema.String,
  reference: Schema.String,
  pendingId: Schema.NullOr(Schema.String),
  entries: Schema.Array(
    Schema.Struct({ accountId: Schema.String, amount: Schema.Int, currency: Schema.String, pending: Schema.Boolean })
  ),
  createdAt: Schema.String
})
export type LedgerTransactionView = typeof LedgerTransactionView.Type

/** The view of a ledger transaction. */
export const ledgerTransactionView = (tx: LedgerTransaction): LedgerTransactionView => ({
  id: tx.id,
  object: "ledger_transaction",
  mode: tx.mode,
  kind: tx.kind,
  code: tx.code,
  reference: tx.reference,
  pendingId: tx.pendingId,
  entries: tx.entries,
  createdAt: tx.createdAt
})

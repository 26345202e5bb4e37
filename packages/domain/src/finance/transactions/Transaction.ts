import { Schema } from "effect"
import { TeamId } from "../../shared/model.ts"
import { type BankAccount, BankAccountId } from "../banking/model.ts"
import { CalendarDate, KnownCurrency, renderMinor, SignedAmountMinor, taxIncludedMinor } from "../money/model.ts"
import { type Tag, tagView } from "../tags/model.ts"
import { type Category, CategoryId, TaxRate, TransactionCategoryView, transactionCategoryView } from "./Category.ts"

const Uuid = Schema.String.check(Schema.isUUID())

/** A business-finance transaction id (not a ledger transaction). */
export const TransactionId = Uuid.pipe(Schema.brand("TransactionId"))
export type TransactionId = typeof TransactionId.Type

/** A transaction attachment id. */
export const AttachmentId = Uuid.pipe(Schema.brand("AttachmentId"))
export type AttachmentId = typeof AttachmentId.Type

/**
 * Where a transaction stands: `pending` at the bank, `posted` (booked), `completed` (booked and reconciled),
 * `archived` (kept out of the way, still counted), `excluded` (left out of every report), `exported` (to accounting).
 */
export const TransactionStatus = Schema.Literals(["pending", "posted", "completed", "archived", "excluded", "exported"])
export type TransactionStatus = typeof TransactionStatus.Type

/** How often a recurring transaction comes back. */
export const TransactionFrequency = Schema.Literals(["weekly", "monthly", "annually", "irregular"])
export type TransactionFrequency = typeof TransactionFrequency.Type

/**
 * A business-finance transaction: money in (positive) or out (negative) of a team, in integer minor units of its
 * currency, with its amount in the team's base currency when known. Imported ones carry their provider's id (unique
 * per team and provider); manual ones do not.
 */
export const Transaction = Schema.Struct({
  id: TransactionId,
  teamId: TeamId,
  date: CalendarDate,
  name: Schema.String,
  description: Schema.NullOr(Schema.String),
  amountMinor: SignedAmountMinor,
  currency: KnownCurrency,
  baseAmountMinor: Schema.NullOr(SignedAmountMinor),
  baseCurrency: Schema.NullOr(KnownCurrency),
  status: TransactionStatus,
  internal: Schema.Boolean,
  recurring: Schema.Boolean,
  frequency: Schema.NullOr(TransactionFrequency),
  manual: Schema.Boolean,
  note: Schema.NullOr(Schema.String),
  categoryId: Schema.NullOr(CategoryId),
  bankAccountId: Schema.NullOr(BankAccountId),
  taxRate: Schema.NullOr(TaxRate),
  taxType: Schema.NullOr(Schema.String),
  counterpartyName: Schema.NullOr(Schema.String),
  provider: Schema.NullOr(Schema.String),
  providerTransactionId: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  updatedAt: Schema.String
})
export type Transaction = typeof Transaction.Type

/** A file attached to a transaction: a stored file's path segments, its name, size in bytes and MIME type. */
export const TransactionAttachment = Schema.Struct({
  id: AttachmentId,
  teamId: TeamId,
  transactionId: TransactionId,
  path: Schema.Array(Schema.String),
  filename: Schema.NullOr(Schema.String),
  size: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
  type: Schema.String,
  createdAt: Schema.String
})
export type TransactionAttachment = typeof TransactionAttachment.Type

/** The bank connection behind a connected account, as a transaction shows it. */
export const ConnectionView = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  logoUrl: Schema.NullOr(Schema.String)
})
export type ConnectionView = typeof ConnectionView.Type

/** The account object inside a transaction (SPEC.md); `connection` is null for manual accounts. */
export const TransactionAccountView = Schema.Struct({
  id: Schema.String,
  name: Schema.NullOr(Schema.String),
  currency: Schema.NullOr(Schema.String),
  connection: Schema.NullOr(ConnectionView)
})
export type TransactionAccountView = typeof TransactionAccountView.Type

/** An attachment item inside a transaction (SPEC.md). */
export const AttachmentView = Schema.Struct({
  id: Schema.String,
  path: Schema.Array(Schema.String),
  size: Schema.Finite,
  type: Schema.String,
  filename: Schema.NullOr(Schema.String)
})
export type AttachmentView = typeof AttachmentView.Type

/** A transaction as the API shows it (SPEC.md's Transaction, plus its description and base amount). */
export const TransactionView = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  description: Schema.NullOr(Schema.String),
  amount: Schema.Finite,
  baseAmount: Schema.NullOr(Schema.Finite),
  baseCurrency: Schema.NullOr(Schema.String),
  taxAmount: Schema.NullOr(Schema.Finite),
  taxRate: Schema.NullOr(Schema.Finite),
  taxType: Schema.NullOr(Schema.String),
  currency: Schema.String,
  counterpartyName: Schema.NullOr(Schema.String),
  date: Schema.String,
  category: Schema.NullOr(TransactionCategoryView),
  status: Schema.String,
  internal: Schema.NullOr(Schema.Boolean),
  recurring: Schema.NullOr(Schema.Boolean),
  manual: Schema.NullOr(Schema.Boolean),
  frequency: Schema.NullOr(Schema.String),
  isFulfilled: Schema.Boolean,
  note: Schema.NullOr(Schema.String),
  account: Schema.NullOr(TransactionAccountView),
  tags: Schema.NullOr(Schema.Array(Schema.Struct({ id: Schema.String, name: Schema.NullOr(Schema.String) }))),
  attachments: Schema.NullOr(Schema.Array(AttachmentView))
})
export type TransactionView = typeof TransactionView.Type

/** A transaction with what its view shows of other resources. */
export interface TransactionDetails {
  readonly transaction: Transaction
  readonly category: Category | null
  readonly account: { readonly account: BankAccount; readonly connection: ConnectionView | null } | null
  readonly tags: ReadonlyArray<Tag>
  readonly attachments: ReadonlyArray<TransactionAttachment>
}

/** The rate a transaction is taxed at: its own, else its category's, else none. */
export const effectiveTaxRate = (transaction: Transaction, category: Category | null): number | null =>
  transaction.taxRate ?? category?.taxRate ?? null

/** The client view of a transaction: amounts in major units, its date as midnight UTC. */
export const transactionView = (details: TransactionDetails): TransactionView => {
  const { transaction: t, category, account } = details
  const taxRate = effectiveTaxRate(t, category)
  return {
    id: t.id,
    name: t.name,
    description: t.description,
    amount: renderMinor(t.amountMinor, t.currency),
    baseAmount:
      t.baseAmountMinor === null || t.baseCurrency === null ? null : renderMinor(t.baseAmountMinor, t.baseCurrency),
    baseCurrency: t.baseCurrency,
    taxAmount: taxRate === null ? null : renderMinor(taxIncludedMinor(t.amountMinor, taxRate), t.currency),
    taxRate,
    taxType: t.taxType ?? category?.taxType ?? null,
    currency: t.currency,
    counterpartyName: t.counterpartyName,
    date: `${t.date}T00:00:00.000Z`,
    category: category === null ? null : transactionCategoryView(category),
    status: t.status,
    internal: t.internal,
    recurring: t.recurring,
    manual: t.manual,
    frequency: t.frequency,
    isFulfilled: details.attachments.length > 0 || t.status === "completed",
    note: t.note,
    account:
      account === null
        ? null
        : {
            id: account.account.id,
            name: account.account.name,
            currency: account.account.currency,
            connection: account.connection
          },
    tags: details.tags.map(tagView),
    attachments: details.attachments.map((a) => ({
      id: a.id,
      path: a.path,
      size: a.size,
      type: a.type,
      filename: a.filename
    }))
  }
}

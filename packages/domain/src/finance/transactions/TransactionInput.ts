import { DateTime, Option, Schema, Struct } from "effect"
import { ContentType, FileName } from "../../files/model.ts"
import { EXAMPLE_ID } from "../../shared/model.ts"
import { CalendarDate, KnownCurrency, SignedAmountMinor } from "../money/model.ts"
import { TaxRate } from "./Category.ts"
import { TransactionFrequency, TransactionStatus } from "./Transaction.ts"

const Uuid = Schema.String.check(Schema.isUUID(undefined, { message: "expected a UUID" }))

const Text = (max: number) =>
  Schema.String.check(Schema.isMaxLength(max, { message: `expected at most ${max} characters` }))

const Name = Schema.String.check(
  Schema.isTrimmed({ message: "must not start or end with spaces" }),
  Schema.isBetweenLength(1, 500, { message: "expected 1 to 500 characters" })
)

/**
 * The day of a transaction: `YYYY-MM-DD`, or an ISO 8601 date-time whose UTC day is taken (SPEC.md shows dates as
 * date-times at midnight UTC).
 */
export const TransactionDate = Schema.String.annotate({
  description: "A day: `YYYY-MM-DD`, or an ISO 8601 date-time whose UTC day is taken.",
  examples: ["2026-03-01"]
}).check(
  Schema.makeFilter((text: string) => transactionDayOf(text) !== undefined, {
    message: "expected a date YYYY-MM-DD or an ISO 8601 date-time"
  })
)

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/u

/** The UTC calendar day of a transaction date, none when it is not a real date or date-time. */
export const transactionDayOf = (text: string): CalendarDate | undefined => {
  if (Schema.is(CalendarDate)(text)) return text
  if (!DATE_TIME.test(text)) return undefined
  return Option.match(DateTime.make(text), {
    onNone: () => undefined,
    onSome: (at) => DateTime.formatIsoDateUtc(at) as CalendarDate
  })
}

/**
 * A manual transaction (POST /transactions, one item of POST /transactions/bulk). `amount` and `baseAmount` are
 * decimal numbers in major units with no more decimals than their currency has; income positive, spend negative. The
 * category is named by id or by slug; tags and the bank account by id, all the team's.
 */
export const CreateTransaction = Schema.Struct({
  name: Name.annotate({
    description: "What the transaction is, 1..500 characters, no leading or trailing spaces.",
    examples: ["Figma subscription"]
  }),
  date: TransactionDate,
  amount: Schema.Finite.annotate({
    description:
      "The amount in major units of `currency`, a decimal with no more decimals than the currency has; income positive, spend negative: -19.99 is a spend of 19.99 USD.",
    examples: [-19.99]
  }),
  currency: KnownCurrency,
  description: Schema.optionalKey(
    Schema.NullOr(Text(2000)).annotate({
      description: "A longer description (at most 2000 characters); null clears it."
    })
  ),
  baseAmount: Schema.optionalKey(
    Schema.NullOr(Schema.Finite).annotate({
      description:
        "The amount converted to `baseCurrency`, in major units (same sign rule as `amount`); null when not converted.",
      examples: [-18.42]
    })
  ),
  baseCurrency: Schema.optionalKey(
    Schema.NullOr(KnownCurrency).annotate({
      description: "The team's base currency `baseAmount` is in; null when not converted.",
      examples: ["EUR"]
    })
  ),
  status: Schema.optionalKey(
    TransactionStatus.annotate({
      description: "Where the transaction is in its life.",
      examples: ["posted"]
    })
  ),
  internal: Schema.optionalKey(
    Schema.Boolean.annotate({
      description: "Whether it moves money between the team's own accounts."
    })
  ),
  recurring: Schema.optionalKey(Schema.Boolean.annotate({ description: "Whether the transaction repeats." })),
  frequency: Schema.optionalKey(
    Schema.NullOr(TransactionFrequency).annotate({
      description: "How often a recurring transaction repeats; null when it does not.",
      examples: ["monthly"]
    })
  ),
  note: Schema.optionalKey(
    Schema.NullOr(Text(2000)).annotate({ description: "The team's note (at most 2000 characters); null clears it." })
  ),
  categoryId: Schema.optionalKey(
    Schema.NullOr(Uuid).annotate({
      description: "The team's category, by id (a UUID); null leaves it uncategorized.",
      examples: [EXAMPLE_ID]
    })
  ),
  categorySlug: Schema.optionalKey(
    Schema.String.check(Schema.isMaxLength(64)).annotate({
      description: "The team's category, by slug (at most 64 characters), instead of `categoryId`.",
      examples: ["software"]
    })
  ),
  bankAccountId: Schema.optionalKey(
    Schema.NullOr(Uuid).annotate({
      description: "The team's bank account it belongs to, a UUID; null for none.",
      examples: [EXAMPLE_ID]
    })
  ),
  taxRate: Schema.optionalKey(
    Schema.NullOr(TaxRate).annotate({
      description: "The tax rate in percent (20 is 20 %); null for none.",
      examples: [20]
    })
  ),
  taxType: Schema.optionalKey(
    Schema.NullOr(Text(100)).annotate({
      description: "The kind of tax (at most 100 characters); null for none.",
      examples: ["VAT"]
    })
  ),
  counterpartyName: Schema.optionalKey(
    Schema.NullOr(Text(500)).annotate({
      description: "Who paid or was paid (at most 500 characters); null for unknown.",
      examples: ["Figma, Inc."]
    })
  ),
  tagIds: Schema.optionalKey(
    Schema.Array(Uuid)
      .check(Schema.isMaxLength(50))
      .annotate({
        description: "The team's tags to put on it, by id (UUIDs, at most 50).",
        examples: [[EXAMPLE_ID]]
      })
  )
})
export type CreateTransaction = typeof CreateTransaction.Type

/** The changes of PATCH /transactions/:id: every field of a manual transaction, each optional (null clears). */
export const UpdateTransaction = Schema.Struct({
  name: Schema.optionalKey(CreateTransaction.fields.name),
  date: Schema.optionalKey(CreateTransaction.fields.date),
  amount: Schema.optionalKey(CreateTransaction.fields.amount),
  currency: Schema.optionalKey(CreateTransaction.fields.currency),
  ...Struct.omit(CreateTransaction.fields, ["name", "date", "amount", "currency"])
})
export type UpdateTransaction = typeof UpdateTransaction.Type

/** One item of PATCH /transactions/bulk: a transaction's id and its changes. */
export const BulkUpdateItem = Schema.Struct({ id: Uuid, ...UpdateTransaction.fields })
export type BulkUpdateItem = typeof BulkUpdateItem.Type

/** The most transactions one bulk request names. */
export const BULK_LIMIT = 100

/**
 * The twin's PATCH /transactions/bulk: the same changes for every transaction of `ids` (1 to 100); `categorySlug`
 * null clears the category, and `tagId` adds that tag to each transaction, keeping its other tags.
 */
export const BulkUpdateByIds = Schema.Struct({
  ids: Schema.Array(Uuid).check(
    Schema.isBetweenLength(1, BULK_LIMIT, { message: `expected 1 to ${BULK_LIMIT} transaction ids` })
  ),
  ...UpdateTransaction.fields,
  categorySlug: Schema.optionalKey(Schema.NullOr(Schema.String.check(Schema.isMaxLength(64)))),
  tagId: Schema.optionalKey(Schema.NullOr(Uuid))
})
export type BulkUpdateByIds = typeof BulkUpdateByIds.Type

/** A bulk update in either form: an array of `{id, ...changes}` or the twin's `{ids, ...changes, tagId}`. */
export type BulkUpdate = ReadonlyArray<BulkUpdateItem> | BulkUpdateByIds

/** SPEC.md's CreateTransactionAttachment: a stored file's path segments, its name, size in bytes and MIME type. */
export const CreateTransactionAttachment = Schema.Struct({
  path: Schema.Array(
    Schema.String.check(Schema.isBetweenLength(1, 255, { message: "expected a path segment of 1 to 255 characters" }))
  ).check(Schema.isBetweenLength(1, 32, { message: "expected 1 to 32 path segments" })),
  name: FileName,
  size: Schema.Int.check(
    Schema.isBetween({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }, { message: "expected a size in bytes" })
  ),
  type: ContentType
})
export type CreateTransactionAttachment = typeof CreateTransactionAttachment.Type

/** The order a transaction list is asked for. */
export const TransactionSortBy = Schema.Literals(["date", "amount"])
export const SortDirection = Schema.Literals(["asc", "desc"])

/**
 * The filters of GET /transactions, as given (validated by `Transactions.list`). Amount bounds are in major units of
 * `currency` (default the team's base currency) and compare the absolute amount.
 */
export interface TransactionQuery {
  readonly from?: string | undefined
  readonly to?: string | undefined
  readonly q?: string | undefined
  /** Category ids or slugs; `uncategorized` stands for no category. */
  readonly categories?: ReadonlyArray<string> | undefined
  readonly tags?: ReadonlyArray<string> | undefined
  readonly bankAccounts?: ReadonlyArray<string> | undefined
  readonly type?: "income" | "expense" | undefined
  readonly statuses?: ReadonlyArray<TransactionStatus> | undefined
  readonly amountMin?: number | string | undefined
  readonly amountMax?: number | string | undefined
  readonly currency?: string | undefined
  readonly attachments?: boolean | undefined
  readonly recurring?: boolean | undefined
  readonly frequencies?: ReadonlyArray<TransactionFrequency> | undefined
  readonly sortBy?: "date" | "amount" | undefined
  readonly direction?: "asc" | "desc" | undefined
  /** The position a previous page ended on (`transactionCursor`), already checked to be this list's. */
  readonly cursor?: string | undefined
  readonly limit?: number | undefined
}

/** The words of a text as searched: its runs of letters and digits, lower-cased. */
export const textWords = (text: string): ReadonlyArray<string> =>
  [...text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)].map((m) => m[0])

/** The words of a text filter as matched: the first 16 of its `textWords`. */
export const searchWords = (text: string): ReadonlyArray<string> => textWords(text).slice(0, 16)

/**
 * One transaction of a bank feed, as an aggregator or bank reports it on a connected account: its own id (unique per
 * provider and team), day, name, signed amount in minor units and whether it is still pending.
 */
export const BankFeedTransaction = Schema.Struct({
  id: Schema.String.check(Schema.isBetweenLength(1, 200)),
  date: CalendarDate,
  name: Schema.String.check(Schema.isBetweenLength(1, 500)),
  amountMinor: SignedAmountMinor,
  currency: KnownCurrency,
  pending: Schema.Boolean,
  description: Schema.NullOr(Schema.String.check(Schema.isMaxLength(2000))),
  counterpartyName: Schema.NullOr(Schema.String.check(Schema.isMaxLength(500)))
})
export type BankFeedTransaction = typeof BankFeedTransaction.Type

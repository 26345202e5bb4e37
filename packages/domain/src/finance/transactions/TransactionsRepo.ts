import { Context, type Effect, type Option } from "effect"
import type { PersistenceUnavailable, TeamId } from "../../shared/model.ts"
import type { BankAccountId } from "../banking/model.ts"
import type { CalendarDate } from "../money/model.ts"
import type { TagId } from "../tags/model.ts"
import type { CategoryId } from "./Category.ts"
import type {
  AttachmentId,
  Transaction,
  TransactionAttachment,
  TransactionDetails,
  TransactionFrequency,
  TransactionId,
  TransactionStatus
} from "./Transaction.ts"

/** Which transactions a list answers; every filter given must hold (absent: no condition). */
export interface TransactionFilter {
  /** Inclusive date range. */
  readonly from?: CalendarDate | undefined
  readonly to?: CalendarDate | undefined
  /** Words matched (as prefixes, case-insensitive) against the name, description and counterparty. */
  readonly q?: string | undefined
  /** In any of these categories; `uncategorized` adds the transactions without one. */
  readonly categoryIds?: ReadonlyArray<CategoryId> | undefined
  readonly uncategorized?: boolean | undefined
  /** Carrying any of these tags. */
  readonly tagIds?: ReadonlyArray<TagId> | undefined
  /** On any of these bank accounts. */
  readonly bankAccountIds?: ReadonlyArray<BankAccountId> | undefined
  /** `income`: amount above 0; `expense`: below 0. */
  readonly type?: "income" | "expense" | undefined
  readonly statuses?: ReadonlyArray<TransactionStatus> | undefined
  /** In this currency. */
  readonly currency?: string | undefined
  /** Inclusive bounds on the absolute amount, in minor units (given with `currency`). */
  readonly amountMinMinor?: number | undefined
  readonly amountMaxMinor?: number | undefined
  /** true: with at least one attachment; false: with none. */
  readonly hasAttachments?: boolean | undefined
  /** true: recurring ones (of these frequencies, when given); false: one-off ones. */
  readonly recurring?: boolean | undefined
  readonly frequencies?: ReadonlyArray<TransactionFrequency> | undefined
}

/** The order of a transaction list: by date or by amount, then id, in the same direction. */
export interface TransactionSort {
  readonly by: "date" | "amount"
  readonly direction: "asc" | "desc"
}

/** Where a page of a transaction list ended: the sort key (a date or an amount in minor units) and the id. */
export interface TransactionPosition {
  readonly key: string | number
  readonly id: TransactionId
}

/** A list call: up to `limit + 1` transactions strictly after `after` in the sort order. */
export interface TransactionListRequest {
  readonly teamId: TeamId
  readonly filter: TransactionFilter
  readonly sort: TransactionSort
  readonly after: Option.Option<TransactionPosition>
  readonly limit: number
}

/** The fields an update may change (absent: unchanged). */
export interface TransactionChanges {
  readonly date?: CalendarDate | undefined
  readonly name?: string | undefined
  readonly description?: string | null | undefined
  readonly amountMinor?: number | undefined
  readonly currency?: string | undefined
  readonly baseAmountMinor?: number | null | undefined
  readonly baseCurrency?: string | null | undefined
  readonly status?: TransactionStatus | undefined
  readonly internal?: boolean | undefined
  readonly recurring?: boolean | undefined
  readonly frequency?: TransactionFrequency | null | undefined
  readonly note?: string | null | undefined
  readonly categoryId?: CategoryId | null | undefined
  readonly bankAccountId?: BankAccountId | null | undefined
  readonly taxRate?: number | null | undefined
  readonly taxType?: string | null | undefined
  readonly counterpartyName?: string | null | undefined
  /** Replaces the transaction's tags. */
  readonly tagIds?: ReadonlyArray<TagId> | undefined
  readonly updatedAt: string
}

/** A new transaction with its tags. */
export interface NewTransaction {
  readonly transaction: Transaction
  readonly tagIds: ReadonlyArray<TagId>
}

/**
 * Storage of a team's business-finance transactions, their tags and attachments. Scoped to the team: another team's
 * transaction is not found. Callers check that the category, bank account and tags they reference are the team's.
 */
export class TransactionsRepo extends Context.Service<
  TransactionsRepo,
  {
    /** Inserts the transactions and their tag links in one write. */
    readonly insert: (transactions: ReadonlyArray<NewTransaction>) => Effect.Effect<void, PersistenceUnavailable>
    /**
     * Inserts an imported transaction unless the team already has one with its provider id: `created`, or
     * `existing` with the stored id (nothing written).
     */
    readonly insertImported: (
      transaction: Transaction
    ) => Effect.Effect<{ readonly outcome: "created" | "existing"; readonly id: TransactionId }, PersistenceUnavailable>
    readonly find: (
      teamId: TeamId,
      id: TransactionId
    ) => Effect.Effect<Option.Option<TransactionDetails>, PersistenceUnavailable>
    /** Up to `limit + 1` transactions in the request's order. */
    readonly list: (
      request: TransactionListRequest
    ) => Effect.Effect<ReadonlyArray<TransactionDetails>, PersistenceUnavailable>
    /** Applies the same changes to each of `ids`; the ids the team has (and were updated). */
    readonly update: (
      teamId: TeamId,
      ids: ReadonlyArray<TransactionId>,
      changes: TransactionChanges
    ) => Effect.Effect<ReadonlyArray<TransactionId>, PersistenceUnavailable>
    /** Deletes the transactions with their tags and attachments; the ids the team had (and were deleted). */
    readonly remove: (
      teamId: TeamId,
      ids: ReadonlyArray<TransactionId>
    ) => Effect.Effect<ReadonlyArray<TransactionId>, PersistenceUnavailable>
    readonly addAttachment: (attachment: TransactionAttachment) => Effect.Effect<void, PersistenceUnavailable>
    /** Deletes an attachment of the transaction; false when it has no such attachment. */
    readonly removeAttachment: (
      teamId: TeamId,
      transactionId: TransactionId,
      id: AttachmentId
    ) => Effect.Effect<boolean, PersistenceUnavailable>
  }
>()("@svc/domain/TransactionsRepo") {}

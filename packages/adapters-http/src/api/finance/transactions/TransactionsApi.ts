import {
  AttachmentView,
  BULK_LIMIT,
  BulkUpdateByIds,
  BulkUpdateItem,
  CreateTransaction,
  CreateTransactionAttachment,
  SortDirection,
  TransactionSortBy,
  TransactionView,
  UpdateTransaction
} from "@svc/domain/model"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { PRESIGNED_URL_DESCRIPTION, PresignedUrlQuery, PresignedUrlResponse } from "../../files/index.ts"
import {
  CommonErrors,
  Flag,
  Forbidden,
  ListOf,
  ListQuery,
  NotFound,
  PlatformAuth,
  RequiredScope,
  UuidParam
} from "../../shared/index.ts"

/** SPEC.md's Transaction (plus its description and base amount); amounts in major units of their currency. */
export const TransactionResponse = TransactionView

const CommaText = Schema.String.check(Schema.isMaxLength(4000))
/** A list filter: comma-separated, or the parameter repeated as the twin's clients send it (`?tags=a&tags=b`). */
const CommaList = Schema.Union([
  CommaText,
  Schema.Array(CommaText).check(Schema.isMaxLength(100, { message: "expected at most 100 values" }))
])
/** `sort=date` with `direction`, or the twin's `sort=[column, direction]` sent as `?sort=date&sort=desc`. */
const Sort = Schema.Union([TransactionSortBy, Schema.Tuple([TransactionSortBy, SortDirection])])
const Bound = Schema.String.check(
  Schema.isPattern(/^-?\d+(?:\.\d+)?$/u, { message: "expected a decimal number in major units" })
)

/**
 * The filters and order of GET /transactions; lists are comma-separated or repeated. `start`, `end` and `accounts` are
 * the twin's names for `from`, `to` and `bankAccounts` (ours win when both are sent).
 */
export const TransactionListQuery = {
  ...ListQuery,
  from: Schema.optionalKey(Schema.String),
  to: Schema.optionalKey(Schema.String),
  start: Schema.optionalKey(Schema.String),
  end: Schema.optionalKey(Schema.String),
  accounts: Schema.optionalKey(CommaList),
  q: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(200))),
  categories: Schema.optionalKey(CommaList),
  tags: Schema.optionalKey(CommaList),
  bankAccounts: Schema.optionalKey(CommaList),
  type: Schema.optionalKey(Schema.Literals(["income", "expense"])),
  statuses: Schema.optionalKey(CommaList),
  amountMin: Schema.optionalKey(Bound),
  amountMax: Schema.optionalKey(Bound),
  currency: Schema.optionalKey(Schema.String),
  attachments: Schema.optionalKey(Flag),
  recurring: Schema.optionalKey(Flag),
  frequencies: Schema.optionalKey(CommaList),
  sort: Schema.optionalKey(Sort),
  direction: Schema.optionalKey(SortDirection)
}

const Items = <S extends Schema.Top>(item: S) =>
  Schema.Array(item).check(
    Schema.isMinLength(1, { message: `expected 1 to ${BULK_LIMIT} items` }),
    Schema.isMaxLength(BULK_LIMIT, { message: `expected 1 to ${BULK_LIMIT} items` })
  )

export const CreateTransactionRequest = CreateTransaction
export const UpdateTransactionRequest = UpdateTransaction
export const BulkCreateTransactionsRequest = Items(CreateTransaction)
export const BulkUpdateTransactionsRequest = Schema.Union([Items(BulkUpdateItem), BulkUpdateByIds])
export const BulkDeleteTransactionsRequest = Items(UuidParam)
export const CreateTransactionAttachmentRequest = CreateTransactionAttachment

const TransactionsData = Schema.Struct({ data: Schema.Array(TransactionResponse) })

const errors = [...CommonErrors, Forbidden, NotFound] as const
const id = { id: UuidParam }

const AMOUNTS =
  "Amounts are decimal numbers in major units with no more decimals than their currency has (400 naming the field); " +
  "the category is named by `categoryId` or `categorySlug`, tags by `tagIds`, the account by `bankAccountId`, all " +
  "the team's (404 naming the field otherwise)."

/** A team's business-finance transactions. Session, OAuth or generic API key (transactions.read / .write). */
export class TransactionsApi extends HttpApiGroup.make("transactions")
  .add(
    HttpApiEndpoint.get("list", "/transactions", {
      query: TransactionListQuery,
      success: ListOf(TransactionResponse),
      error: errors
    })
      .annotate(RequiredScope, "transactions.read")
      .annotate(OpenApi.Summary, "List transactions")
      .annotate(
        OpenApi.Description,
        "The team's transactions, newest first (`sort=date|amount`, `direction=asc|desc`, ties by id), by cursor. " +
          "Filters (all must hold): `from`/`to` (inclusive days; `from` after `to` is 400), `q` (every word starts a " +
          "word of the name, description or counterparty), `categories` (ids or slugs, `uncategorized`), `tags`, " +
          "`bankAccounts` (ids), `type` (income, expense), `statuses`, `amountMin`/`amountMax` (absolute amount in " +
          "major units of `currency`, which they require), `currency`, `attachments` and `recurring` (true, false), " +
          "`frequencies`. Lists are comma-separated."
      ),
    HttpApiEndpoint.post("create", "/transactions", {
      payload: CreateTransactionRequest,
      success: TransactionResponse.pipe(HttpApiSchema.status(201)),
      error: errors
    })
      .annotate(RequiredScope, "transactions.write")
      .annotate(OpenApi.Summary, "Create a manual transaction")
      .annotate(OpenApi.Description, `Records a manual transaction (status \`posted\` by default). ${AMOUNTS}`),
    HttpApiEndpoint.post("createMany", "/transactions/bulk", {
      payload: BulkCreateTransactionsRequest,
      success: TransactionsData.pipe(HttpApiSchema.status(201)),
      error: errors
    })
      .annotate(RequiredScope, "transactions.write")
      .annotate(OpenApi.Summary, "Create transactions in bulk")
      .annotate(
        OpenApi.Description,
        "Records up to 100 manual transactions, all or none: a refused item is named by its index (`2.amount`)."
      ),
    HttpApiEndpoint.patch("updateMany", "/transactions/bulk", {
      payload: BulkUpdateTransactionsRequest,
      success: TransactionsData,
      error: errors
    })
      .annotate(RequiredScope, "transactions.write")
      .annotate(OpenApi.Summary, "Update transactions in bulk")
      .annotate(
        OpenApi.Description,
        "Applies each item's changes to the transaction of its `id` (a refused item is named by its index, `2.amount`), " +
          "or the twin's `{ids, ...changes, tagId}`: the same changes to each of up to 100 `ids` (an unknown id is " +
          "404 naming `ids.2`), `categorySlug: null` clearing the category and `tagId` adding that tag to each. " +
          "All or none."
      ),
    HttpApiEndpoint.delete("deleteMany", "/transactions/bulk", {
      payload: BulkDeleteTransactionsRequest,
      success: Schema.Struct({ data: Schema.Array(Schema.Struct({ id: Schema.String })) }),
      error: errors
    })
      .annotate(RequiredScope, "transactions.write")
      .annotate(OpenApi.Summary, "Delete transactions in bulk")
      .annotate(
        OpenApi.Description,
        "Deletes the transactions of the ids in the body, all or none (an id the team does not have: 404 naming its index)."
      ),
    HttpApiEndpoint.get("get", "/transactions/:id", { params: id, success: TransactionResponse, error: errors })
      .annotate(RequiredScope, "transactions.read")
      .annotate(OpenApi.Summary, "Get a transaction"),
    HttpApiEndpoint.patch("update", "/transactions/:id", {
      params: id,
      payload: UpdateTransactionRequest,
      success: TransactionResponse,
      error: errors
    })
      .annotate(RequiredScope, "transactions.write")
      .annotate(OpenApi.Summary, "Update a transaction")
      .annotate(
        OpenApi.Description,
        `Changes the fields given (null clears). A new currency without an amount keeps the amount in major units. ${AMOUNTS}`
      ),
    HttpApiEndpoint.delete("delete", "/transactions/:id", { params: id, success: TransactionResponse, error: errors })
      .annotate(RequiredScope, "transactions.write")
      .annotate(OpenApi.Summary, "Delete a transaction")
      .annotate(OpenApi.Description, "Deletes the transaction with its tags and attachments, and answers it."),
    HttpApiEndpoint.post("attach", "/transactions/:id/attachments", {
      params: id,
      payload: CreateTransactionAttachmentRequest,
      success: AttachmentView.pipe(HttpApiSchema.status(201)),
      error: errors
    })
      .annotate(RequiredScope, "transactions.write")
      .annotate(OpenApi.Summary, "Attach a file to a transaction")
      .annotate(
        OpenApi.Description,
        "SPEC.md's CreateTransactionAttachment: the path segments of a file in the team's storage (the first is the " +
          "team id), its name, size in bytes and MIME type."
      ),
    HttpApiEndpoint.post("attachmentPresignedUrl", "/transactions/:id/attachments/:attachmentId/presigned-url", {
      params: { id: UuidParam, attachmentId: UuidParam },
      query: PresignedUrlQuery,
      success: PresignedUrlResponse,
      error: errors
    })
      .annotate(RequiredScope, "transactions.read")
      .annotate(OpenApi.Summary, "Create a presigned URL for a transaction attachment")
      .annotate(
        OpenApi.Description,
        `A URL to the attachment's file, at the path it was attached with. ${PRESIGNED_URL_DESCRIPTION} A ` +
          "transaction or attachment the team does not have is 404."
      ),
    HttpApiEndpoint.delete("detach", "/transactions/:id/attachments/:attachmentId", {
      params: { id: UuidParam, attachmentId: UuidParam },
      success: AttachmentView,
      error: errors
    })
      .annotate(RequiredScope, "transactions.write")
      .annotate(OpenApi.Summary, "Remove an attachment from a transaction")
      .annotate(OpenApi.Description, "Detaches the file (the stored file stays) and answers the attachment.")
  )
  .middleware(PlatformAuth) {}

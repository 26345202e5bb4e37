import { InboxItemView, InboxStatus, InboxSuggestion } from "@svc/domain/model"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { PRESIGNED_URL_DESCRIPTION, PresignedUrlQuery, PresignedUrlResponse } from "../../files/index.ts"
import {
  CommonErrors,
  Forbidden,
  ListOf,
  ListQuery,
  NotFound,
  PlatformAuth,
  RequiredScope,
  UuidParam
} from "../../shared/index.ts"

/** An inbox item as listed. */
export const InboxItemResponse = InboxItemView

/** An inbox item as read alone: with the transactions it most likely belongs to, best first. */
export const InboxItemDetailResponse = Schema.Struct({
  ...InboxItemView.fields,
  suggestions: Schema.Array(InboxSuggestion)
})

export const UpdateInboxItemRequest = Schema.Struct({
  transactionId: Schema.optionalKey(Schema.NullOr(UuidParam)),
  status: Schema.optionalKey(InboxStatus),
  displayName: Schema.optionalKey(
    Schema.NullOr(
      Schema.String.check(
        Schema.isTrimmed({ message: "must not start or end with spaces" }),
        Schema.isBetweenLength(1, 255, { message: "expected 1 to 255 characters" })
      )
    )
  )
})

/** What DELETE answers: the id of the inbox item that is gone. */
export const DeletedInboxItem = Schema.Struct({
  id: Schema.String,
  object: Schema.Literal("inbox_item"),
  deleted: Schema.Literal(true)
})

const errors = [...CommonErrors, Forbidden] as const
const id = { id: UuidParam }

/** A team's inbox: e-mails received on its inbox address, matched to transactions. Session, OAuth or API key. */
export class InboxApi extends HttpApiGroup.make("inbox")
  .add(
    HttpApiEndpoint.get("list", "/inbox", {
      query: { ...ListQuery, status: Schema.optionalKey(InboxStatus) },
      success: ListOf(InboxItemResponse),
      error: errors
    })
      .annotate(RequiredScope, "inbox.read")
      .annotate(OpenApi.Summary, "List inbox items")
      .annotate(OpenApi.Description, "The team's inbox items, newest first; `status` keeps those in it."),
    HttpApiEndpoint.get("get", "/inbox/:id", {
      params: id,
      success: InboxItemDetailResponse,
      error: [...errors, NotFound]
    })
      .annotate(RequiredScope, "inbox.read")
      .annotate(OpenApi.Summary, "Get an inbox item")
      .annotate(
        OpenApi.Description,
        "The item with up to 5 `suggestions`: the team's transactions dated within 30 days of its arrival that share " +
          "an amount (written in the subject, text or attachment names) or a name (sender and counterparty) with " +
          "it, scored by amount (0.5), date proximity (0.3) and name (0.2). Each stored attachment's `path` downloads " +
          "through GET /files/download/file; a `skipped` one says why it was not stored."
      ),
    HttpApiEndpoint.post("presignedUrl", "/inbox/:id/presigned-url", {
      params: id,
      query: PresignedUrlQuery,
      success: PresignedUrlResponse,
      error: [...errors, NotFound]
    })
      .annotate(RequiredScope, "inbox.read")
      .annotate(OpenApi.Summary, "Create a presigned URL for an inbox item's attachment")
      .annotate(
        OpenApi.Description,
        `A URL to the item's first stored attachment, named as received. ${PRESIGNED_URL_DESCRIPTION} An item with ` +
          "no stored attachment is 400 `file_not_available`; another team's item is 404."
      ),
    HttpApiEndpoint.patch("update", "/inbox/:id", {
      params: id,
      payload: UpdateInboxItemRequest,
      success: InboxItemResponse,
      error: [...errors, NotFound]
    })
      .annotate(RequiredScope, "inbox.write")
      .annotate(OpenApi.Summary, "Match, unmatch or file an inbox item")
      .annotate(
        OpenApi.Description,
        "`transactionId` matches the item to one of the team's transactions (null unmatches); `status` is " +
          "`pending`, `done` or `archived`; `displayName` renames it (null clears the name). Without a `status`, a match sets `done` and an unmatch `pending`. A " +
          "transaction the team does not have is 400 naming `transactionId`."
      ),
    HttpApiEndpoint.delete("delete", "/inbox/:id", {
      params: id,
      success: DeletedInboxItem,
      error: [...errors, NotFound]
    })
      .annotate(RequiredScope, "inbox.write")
      .annotate(OpenApi.Summary, "Delete an inbox item")
      .annotate(OpenApi.Description, "Deletes the item and its stored attachments.")
  )
  .middleware(PlatformAuth) {}

import { DocumentView } from "@svc/domain/model"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { PRESIGNED_URL_DESCRIPTION, PresignedUrlQuery, PresignedUrlResponse } from "../../files/index.ts"
import {
  BadRequest,
  CommonErrors,
  Forbidden,
  ListOf,
  ListQuery,
  NotFound,
  PayloadTooLarge,
  PlatformAuth,
  RequiredScope,
  UuidParam
} from "../../shared/index.ts"

/** A document as answered. */
export const DocumentResponse = DocumentView

/** The multipart upload: an optional `title` first, then the `file` part (with a file name and content type). */
export const UploadDocumentRequest = Schema.Struct({
  title: Schema.optionalKey(
    Schema.String.check(Schema.isBetweenLength(1, 200)).annotate({
      description: "The document's title (1 to 200 characters; the file name when absent). Send it before the file."
    })
  ),
  file: Schema.Uint8Array.annotate({
    description: "The file, last, with its name and an allowed content type (PDF, images, office documents, text)"
  })
}).pipe(HttpApiSchema.asMultipartStream())

/** What DELETE answers: the id of the document that is gone. */
export const DeletedDocument = Schema.Struct({
  id: Schema.String,
  object: Schema.Literal("document"),
  deleted: Schema.Literal(true)
})

const errors = [...CommonErrors, Forbidden] as const
const id = { id: UuidParam }

/** A team's documents: session, OAuth or generic API key, by scope. */
export class DocumentsApi extends HttpApiGroup.make("documents")
  .add(
    HttpApiEndpoint.get("list", "/documents", {
      query: ListQuery,
      success: ListOf(DocumentResponse),
      error: errors
    })
      .annotate(RequiredScope, "documents.read")
      .annotate(OpenApi.Summary, "List documents")
      .annotate(OpenApi.Description, "The team's documents, newest first."),
    HttpApiEndpoint.post("upload", "/documents", {
      payload: UploadDocumentRequest,
      success: DocumentResponse.pipe(HttpApiSchema.status(201)),
      error: [...errors, BadRequest, PayloadTooLarge]
    })
      .annotate(RequiredScope, "documents.write")
      .annotate(OpenApi.Summary, "Upload a document")
      .annotate(
        OpenApi.Description,
        "A `multipart/form-data` upload, streamed to the file store at `vault/{teamId}/documents/{id}` (a path of " +
          "ids: the file name is the document's `name`, 1 to 255 characters without control characters, else 400 " +
          "naming `file.filename`): the answer's `path` downloads it through GET /files/download/file. Fields after " +
          "the file part are refused (the file is stored as it arrives). A file over the file limit (25 MiB unless " +
          "configured) is 413; a missing file part, or a missing, malformed (RFC 9110) or disallowed content type, " +
          "is 400 naming `file`. Nothing is kept of a refused or failed upload; a failing file store is 503 " +
          "`file_store_unavailable`."
      ),
    HttpApiEndpoint.get("get", "/documents/:id", {
      params: id,
      success: DocumentResponse,
      error: [...errors, NotFound]
    })
      .annotate(RequiredScope, "documents.read")
      .annotate(OpenApi.Summary, "Get a document"),
    HttpApiEndpoint.post("presignedUrl", "/documents/:id/presigned-url", {
      params: id,
      query: PresignedUrlQuery,
      success: PresignedUrlResponse,
      error: [...errors, NotFound]
    })
      .annotate(RequiredScope, "documents.read")
      .annotate(OpenApi.Summary, "Create a presigned URL for a document")
      .annotate(
        OpenApi.Description,
        `A URL to the document's stored file, named as the document. ${PRESIGNED_URL_DESCRIPTION} Another team's ` +
          "document is 404."
      ),
    HttpApiEndpoint.delete("delete", "/documents/:id", {
      params: id,
      success: DeletedDocument,
      error: [...errors, NotFound]
    })
      .annotate(RequiredScope, "documents.write")
      .annotate(OpenApi.Summary, "Delete a document")
      .annotate(OpenApi.Description, "Deletes the document's metadata and its file.")
  )
  .middleware(PlatformAuth) {}

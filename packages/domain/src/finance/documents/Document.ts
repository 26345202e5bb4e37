import { Schema } from "effect"
import { TeamId } from "../../shared/model.ts"

/** A file a team keeps (a contract, a receipt, a statement), stored at `path` in the team's vault. */
export const Document = Schema.Struct({
  id: Schema.String,
  teamId: TeamId,
  title: Schema.String,
  name: Schema.String,
  contentType: Schema.String,
  size: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
  path: Schema.String,
  createdAt: Schema.String
})
export type Document = typeof Document.Type

const { teamId: _teamId, ...clientFields } = Document.fields

/** A document as clients see it: every stored field but the team, and its object name. */
export const DocumentView = Schema.Struct({ object: Schema.Literal("document"), ...clientFields })
export type DocumentView = typeof DocumentView.Type

/** The client view of a document. */
export const documentView = ({ teamId: _teamId, ...document }: Document): DocumentView => ({
  ...document,
  object: "document"
})

/** The content types a document may have: documents, images, spreadsheets and text. */
export const DOCUMENT_CONTENT_TYPES: ReadonlySet<string> = new Set([
  "application/pdf",
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
  "image/heic",
  "image/heif",
  "image/tiff",
  "text/plain",
  "text/csv",
  "application/msword",
  "application/vnd.ms-excel",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  "application/vnd.oasis.opendocument.text",
  "application/vnd.oasis.opendocument.spreadsheet"
])

/** A content type without its parameters, in lower case (`Text/Plain; charset=utf-8` is `text/plain`). */
export const bareContentType = (contentType: string): string => (contentType.split(";")[0] ?? "").trim().toLowerCase()

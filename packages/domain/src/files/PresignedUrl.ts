import { Schema } from "effect"

/** A presigned URL as answered (the twin's shape): the URL, when it expires and the file's name. */
export const PresignedUrl = Schema.Struct({
  url: Schema.String.annotate({ description: "The URL: a bearer credential for this one file until `expiresAt`" }),
  expiresAt: Schema.String.annotate({ description: "ISO 8601 time the URL expires at" }),
  fileName: Schema.NullOr(Schema.String).annotate({ description: "The file's name, null when it has none" })
})
export type PresignedUrl = typeof PresignedUrl.Type

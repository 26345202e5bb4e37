import { ContentType, type StoredFile, UNKNOWN_CONTENT_TYPE } from "@svc/domain"
import { Schema, type Stream } from "effect"
import { HttpServerResponse } from "effect/http"
import { contentDisposition } from "./ContentDisposition.ts"

/** The policy every stored user file is served under: it loads nothing, runs nothing, and has an origin of its own. */
const USER_FILE_POLICY = "default-src 'none'; sandbox"

const isContentType = Schema.is(ContentType)

/**
 * A stored user file as a response, whatever it holds: `Content-Disposition: attachment` under `filename` (RFC 6266,
 * with `filename*` for a name that is not plain ASCII), `X-Content-Type-Options: nosniff` and
 * `Content-Security-Policy: default-src 'none'; sandbox`, so HTML or SVG a team received is saved, or shown inert,
 * never run as a page of the service. Served as `contentType` when it is a `ContentType` (a type stored before types
 * were checked where they enter may not be), else as `application/octet-stream`. `inline` (a presigned URL's
 * `download=false`) shows it under the same policy; `maxAgeSeconds` lets the client alone keep it that long
 * (`Cache-Control: private`), where otherwise nothing keeps it (`no-store`).
 */
export const userFileResponse = <E>(
  file: StoredFile,
  content: Stream.Stream<Uint8Array, E>,
  options: {
    readonly contentType: string
    readonly filename: string
    readonly inline?: boolean
    readonly maxAgeSeconds?: number
  }
) =>
  HttpServerResponse.stream(content, {
    contentType: isContentType(options.contentType) ? options.contentType : UNKNOWN_CONTENT_TYPE,
    contentLength: file.size,
    headers: {
      "content-disposition": contentDisposition(options.inline === true ? "inline" : "attachment", options.filename),
      "x-content-type-options": "nosniff",
      "content-security-policy": USER_FILE_POLICY,
      "cache-control": options.maxAgeSeconds === undefined ? "no-store" : `private, max-age=${options.maxAgeSeconds}`
    }
  })

import { FileName, MAX_FILE_LINK_SECONDS, PresignedUrl } from "@svc/domain/model"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { BadRequest, Flag, InternalError, NotFound, Unauthorized } from "../shared/index.ts"

const Required = Schema.String.check(Schema.isMinLength(1, { message: "expected at least 1 character" }))

/** A vault path: `{teamId}/...`, the `vault/` prefix optional. */
const VaultPath = Required.annotate({
  description: "The file's vault path, `vault/{teamId}/...` (the `vault/` prefix may be present or absent)"
})

/** The team file key (`fileKey` of GET /users/me). */
const FileKey = Required.annotate({ description: "The team file key: `fileKey` of GET /users/me" })

const Binary = (contentType: string) => Schema.Uint8Array.pipe(HttpApiSchema.asUint8Array({ contentType }))

/** What every stored file is served with, whatever it holds. */
const INERT =
  "Served as an attachment (`Content-Disposition: attachment`, RFC 6266 with an RFC 5987 `filename*` for names " +
  "that are not plain ASCII), with `X-Content-Type-Options: nosniff` and `Content-Security-Policy: default-src " +
  "'none'; sandbox`, so HTML or SVG a team received never runs as a page of the service. A storage failure is 500 " +
  "`internal_error` naming the request id it is logged under."

const LIFETIME_MESSAGE = `expected an integer between 1 and ${MAX_FILE_LINK_SECONDS}`

/** What a client asks of a presigned URL: its disposition and lifetime (the twin's `download`, and `expireIn`). */
export const PresignedUrlQuery = {
  download: Schema.optionalKey(
    Flag.annotate({
      description: "`true` (the default): the file downloads as an attachment; `false`: shown inline, still inert"
    })
  ),
  expireIn: Schema.optionalKey(
    Schema.NumberFromString.check(
      Schema.isInt({ message: LIFETIME_MESSAGE }),
      Schema.isBetween({ minimum: 1, maximum: MAX_FILE_LINK_SECONDS }, { message: LIFETIME_MESSAGE })
    ).annotate({ description: `Seconds the URL lives: 1 to ${MAX_FILE_LINK_SECONDS}, default 60` })
  )
}

/** A presigned URL as answered. */
export const PresignedUrlResponse = PresignedUrl

/** How every presigned-url route describes what it answers. */
export const PRESIGNED_URL_DESCRIPTION =
  "The URL (GET /files/presigned) reads the file with no other credential until `expiresAt`: treat it as a secret. " +
  "It lives `expireIn` seconds (1 to 3600, default 60; else 400 naming `expireIn`) and serves the file as an " +
  "attachment, or inline when `download=false`."

/** Team files by path and file key: no bearer credential, the `fk` of the path's team instead. */
export class FilesApi extends HttpApiGroup.make("files").add(
  HttpApiEndpoint.get("proxy", "/files/proxy", {
    query: { filePath: VaultPath, fk: FileKey },
    success: Binary("application/octet-stream"),
    error: [BadRequest, NotFound, InternalError]
  })
    .annotate(OpenApi.Summary, "Read a team file")
    .annotate(
      OpenApi.Description,
      "Streams the file as `application/octet-stream`, named as stored. A path that could leave the team's folder " +
        "is 400; a key that is not the path's team's is answered 404, like a missing file, so the route tells " +
        `nothing of other teams' files. ${INERT}`
    ),
  HttpApiEndpoint.get("downloadFile", "/files/download/file", {
    query: {
      path: VaultPath,
      filename: Schema.optionalKey(FileName),
      fk: FileKey
    },
    success: Binary("application/octet-stream").annotate({ description: "The file, with its stored content type" }),
    error: [BadRequest, Unauthorized, NotFound, InternalError]
  })
    .annotate(OpenApi.Summary, "Download a team file")
    .annotate(
      OpenApi.Description,
      "Streams the file with its stored content type (`application/octet-stream` for a type that is not an RFC 9110 " +
        "media type) as an attachment named `filename` (1 to 255 characters, no control characters; else the name " +
        "it was stored under). A path that could leave the team's folder is 400; a key that is not the path's " +
        `team's is 401. ${INERT}`
    ),
  HttpApiEndpoint.get("presigned", "/files/presigned", {
    query: {
      path: VaultPath,
      expires: Schema.NumberFromString.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(0)).annotate({
        description: "When the URL expires, in unix seconds"
      }),
      download: Flag.annotate({ description: "`true`: served as an attachment; `false`: inline" }),
      signature: Required.annotate({ description: "The URL's signature" })
    },
    success: Binary("application/octet-stream").annotate({ description: "The file, with its stored content type" }),
    error: [BadRequest, Unauthorized, NotFound, InternalError]
  })
    .annotate(OpenApi.Summary, "Read a file through a presigned URL")
    .annotate(
      OpenApi.Description,
      "The URL a presigned-url route answered (POST /transactions/{id}/attachments/{attachmentId}/presigned-url, " +
        "POST /documents/{id}/presigned-url, POST /inbox/{id}/presigned-url): no other credential. Its signature " +
        "(HMAC-SHA256 over the team, path, expiry and disposition) is compared in constant time; a URL whose path, " +
        "expiry, disposition or signature was changed, or that has expired, is 401. `Cache-Control: private` with a " +
        "`max-age` of at most the seconds the URL has left. The file is served with its stored content type, as an " +
        "attachment or, for `download=false`, inline under the same policy: `X-Content-Type-Options: nosniff` and " +
        "`Content-Security-Policy: default-src 'none'; sandbox`. A storage failure is 500 `internal_error`."
    )
) {}

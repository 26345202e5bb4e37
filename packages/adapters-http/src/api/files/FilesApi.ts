import { FileName } from "@svc/domain/model"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { BadRequest, InternalError, NotFound, Unauthorized } from "../shared/index.ts"

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
    )
) {}

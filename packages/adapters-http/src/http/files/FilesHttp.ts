import { FileAccess, UNKNOWN_CONTENT_TYPE } from "@svc/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../api/Api.ts"
import { badRequest, notFound, unauthorized } from "../../api/shared/index.ts"
import { internalFailure, userFileResponse } from "../shared/index.ts"

const LINK_REFUSED = "the URL's signature does not hold for its path, expiry and disposition"
const noFile = () => Effect.fail(notFound("no file at that path"))
const invalidPath = (field: string) => (e: { readonly reason: string }) =>
  Effect.fail(badRequest("invalid_path", `${field}: ${e.reason}`, [{ path: `query.${field}`, message: e.reason }]))

export const FilesHttp = HttpApiBuilder.group(Api, "files", (handlers) =>
  Effect.gen(function* () {
    const access = yield* FileAccess
    return handlers
      .handle("proxy", ({ query }) =>
        access.open(query.filePath, query.fk).pipe(
          Effect.map(({ file, content }) =>
            userFileResponse(file, content, { contentType: UNKNOWN_CONTENT_TYPE, filename: file.name })
          ),
          Effect.catchTags({
            InvalidFilePath: invalidPath("filePath"),
            FileKeyRefused: noFile,
            FileNotFound: noFile,
            FileStoreUnavailable: internalFailure
          })
        )
      )
      .handle("downloadFile", ({ query }) =>
        access.open(query.path, query.fk).pipe(
          Effect.map(({ file, content }) =>
            userFileResponse(file, content, { contentType: file.contentType, filename: query.filename ?? file.name })
          ),
          Effect.catchTags({
            InvalidFilePath: invalidPath("path"),
            FileKeyRefused: () => Effect.fail(unauthorized("the file key is not the key of the path's team")),
            FileNotFound: noFile,
            FileStoreUnavailable: internalFailure
          })
        )
      )
      .handle("presigned", ({ query }) =>
        access
          .openLink({
            key: query.path,
            expires: query.expires,
            download: query.download === "true",
            signature: query.signature
          })
          .pipe(
            Effect.map(({ file, content, millisLeft }) =>
              userFileResponse(file, content, {
                contentType: file.contentType,
                filename: file.name,
                inline: query.download === "false",
                maxAgeSeconds: Math.floor(millisLeft / 1000)
              })
            ),
            Effect.catchTags({
              InvalidFilePath: () => Effect.fail(unauthorized(LINK_REFUSED)),
              FileLinkRefused: (e) =>
                Effect.fail(unauthorized(e.reason === "expired" ? "the URL has expired" : LINK_REFUSED)),
              FileNotFound: noFile,
              FileStoreUnavailable: internalFailure
            })
          )
      )
  })
)

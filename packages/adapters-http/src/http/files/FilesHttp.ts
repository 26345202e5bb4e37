import { FileAccess, fileNameOf } from "@svc/domain"
import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../api/Api.ts"
import { badRequest, InternalError, notFound, unauthorized } from "../../api/shared/index.ts"
import { contentDisposition } from "../shared/index.ts"

const noFile = () => Effect.fail(notFound("no file at that path"))
const internal = () => Effect.fail(new InternalError({ error: "internal_error", code: 500 }))
const invalidPath = (field: string) => (e: { readonly reason: string }) =>
  Effect.fail(badRequest("invalid_path", `${field}: ${e.reason}`, [{ path: `query.${field}`, message: e.reason }]))

export const FilesHttp = HttpApiBuilder.group(Api, "files", (handlers) =>
  Effect.gen(function* () {
    const access = yield* FileAccess
    return handlers
      .handle("proxy", ({ query }) =>
        access.open(query.filePath, query.fk).pipe(
          Effect.map(({ file, content }) =>
            HttpServerResponse.stream(content, { contentType: "application/octet-stream", contentLength: file.size })
          ),
          Effect.catchTags({
            InvalidFilePath: invalidPath("filePath"),
            FileKeyRefused: noFile,
            FileNotFound: noFile,
            PersistenceUnavailable: internal
          })
        )
      )
      .handle("downloadFile", ({ query }) =>
        access.open(query.path, query.fk).pipe(
          Effect.map(({ file, content }) =>
            HttpServerResponse.stream(content, {
              contentType: file.contentType,
              contentLength: file.size,
              headers: {
                "content-disposition": contentDisposition("attachment", query.filename ?? fileNameOf(file.key))
              }
            })
          ),
          Effect.catchTags({
            InvalidFilePath: invalidPath("path"),
            FileKeyRefused: () => Effect.fail(unauthorized("the file key is not the key of the path's team")),
            FileNotFound: noFile,
            PersistenceUnavailable: internal
          })
        )
      )
  })
)

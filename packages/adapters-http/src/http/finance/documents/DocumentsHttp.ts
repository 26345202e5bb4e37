import { type Document, Documents, documentView, MaxFileBytes, type TeamId, toPage } from "@svc/domain"
import { ByteSize, Effect, Stream } from "effect"
import { HttpIncomingMessage, HttpServerRequest, Multipart } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../../api/Api.ts"
import { badRequest, notFound, PayloadTooLarge } from "../../../api/shared/index.ts"
import {
  listPaging,
  orFileStoreUnavailable,
  orServiceUnavailable,
  presignedUrls,
  principalTeam
} from "../../shared/index.ts"

/** Room for the multipart framing and the title around a file of the limit. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024
const MAX_TITLE_LENGTH = 200

const invalid = (field: string, message: string) =>
  badRequest("validation_failed", `${field}: ${message}`, [{ path: field, message }])
const tooLarge = (maxBytes: number) =>
  new PayloadTooLarge({ error: "payload_too_large", code: 413, message: `the file is over ${maxBytes} bytes` })

/**
 * Reads a multipart upload part by part: an optional `title` field, then the `file` part, streamed to the documents
 * as it arrives. A part after the file, a part of another name or an unreadable body is refused, and a document stored
 * before the refusal removed.
 */
const uploadParts = (
  documents: Documents["Service"],
  maxBytes: number,
  teamId: TeamId,
  parts: Stream.Stream<Multipart.Part, Multipart.MultipartError>
) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    if (Number(request.headers["content-length"] ?? "0") > maxBytes + MULTIPART_OVERHEAD_BYTES) {
      return yield* tooLarge(maxBytes)
    }
    let title: string | null = null
    let stored: Document | null = null
    const unexpected = (key: string) =>
      invalid(key, stored === null ? "unknown field" : "fields after the file are not read; send the file last")
    const removeStored = Effect.suspend(() =>
      stored === null ? Effect.void : documents.remove(teamId, stored.id).pipe(Effect.ignore)
    )
    yield* Stream.runForEach(parts, (part) =>
      Effect.gen(function* () {
        if (stored !== null) return yield* Effect.fail(unexpected(part.key))
        if (part._tag === "Field" && part.key === "title") {
          if (part.value.length < 1 || part.value.length > MAX_TITLE_LENGTH) {
            return yield* invalid("title", `expected 1 to ${MAX_TITLE_LENGTH} characters`)
          }
          title = part.value
          return
        }
        if (part.key !== "file") return yield* Effect.fail(unexpected(part.key))
        if (part._tag !== "File") return yield* invalid("file", "expected a file part with a file name")
        stored = yield* documents.upload(teamId, {
          filename: part.name,
          contentType: part.contentType,
          title,
          content: part.content
        })
      })
    ).pipe(
      Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(maxBytes + MULTIPART_OVERHEAD_BYTES)),
      Effect.provideService(Multipart.MaxParts, 10),
      Effect.provideService(Multipart.MaxFieldSize, ByteSize.kibibytes(16)),
      Effect.onError(() => removeStored)
    )
    if (stored === null) return yield* invalid("file", "a file part named file is required")
    return stored as Document
  }).pipe(
    Effect.catchTags({
      DocumentRefused: (e) => Effect.fail(invalid(e.field, e.message)),
      FileTooLarge: (e) => Effect.fail(tooLarge(e.maxBytes)),
      MultipartError: (e) =>
        Effect.gen(function* () {
          const reason = e.reason._tag
          if (reason === "FileTooLarge" || reason === "BodyTooLarge") return yield* tooLarge(maxBytes)
          if (reason === "InternalError") return yield* Effect.die(e)
          return yield* badRequest("invalid_multipart", `the multipart body could not be read (${reason})`)
        })
    })
  )

export const DocumentsHttp = HttpApiBuilder.group(Api, "documents", (handlers) =>
  Effect.gen(function* () {
    const { pageOf, signedPage } = yield* listPaging
    const { presignedUrl } = yield* presignedUrls
    const documents = yield* Documents
    const maxBytes = yield* MaxFileBytes
    const missing = (id: string) => () => Effect.fail(notFound(`no document ${id}`))
    return handlers
      .handle("list", ({ query }) =>
        Effect.gen(function* () {
          const { teamId } = yield* principalTeam
          const scope = `documents:${teamId}`
          const page = yield* pageOf(scope, query)
          return yield* signedPage(scope, toPage(page, yield* documents.list(teamId, page), documentView))
        }).pipe(orServiceUnavailable)
      )
      .handle("upload", ({ payload }) =>
        Effect.gen(function* () {
          const { teamId } = yield* principalTeam
          return documentView(yield* uploadParts(documents, maxBytes, teamId, payload))
        }).pipe(orServiceUnavailable, orFileStoreUnavailable)
      )
      .handle("get", ({ params }) =>
        Effect.gen(function* () {
          const { teamId } = yield* principalTeam
          return documentView(yield* documents.get(teamId, params.id))
        }).pipe(Effect.catchTag("DocumentNotFound", missing(params.id)), orServiceUnavailable)
      )
      .handle("presignedUrl", ({ params, query }) =>
        Effect.gen(function* () {
          const { teamId } = yield* principalTeam
          const document = yield* documents.get(teamId, params.id)
          return yield* presignedUrl(teamId, document.path, document.name, query)
        }).pipe(Effect.catchTag("DocumentNotFound", missing(params.id)), orServiceUnavailable)
      )
      .handle("delete", ({ params }) =>
        Effect.gen(function* () {
          const { teamId } = yield* principalTeam
          const removed = yield* documents.remove(teamId, params.id)
          return { id: removed.id, object: "document" as const, deleted: true as const }
        }).pipe(Effect.catchTag("DocumentNotFound", missing(params.id)), orServiceUnavailable, orFileStoreUnavailable)
      )
  })
)

import { Context, Effect, Layer, Option, Result, Schema, type Stream } from "effect"
import { FileStorage, type FileTooLarge, MaxFileBytes, safeFileName, storageKey } from "../../files/index.ts"
import type { PageRequest, PersistenceUnavailable, TeamId } from "../../shared/index.ts"
import { newIdText, nowIso } from "../../shared/index.ts"
import { bareContentType, DOCUMENT_CONTENT_TYPES, type Document } from "./Document.ts"

/** The team has no document with that id. */
export class DocumentNotFound extends Schema.TaggedError<DocumentNotFound>()("DocumentNotFound", {
  id: Schema.String
}) {}

/** An upload the documents refuse, naming the field at fault. */
export class DocumentRefused extends Schema.TaggedError<DocumentRefused>()("DocumentRefused", {
  field: Schema.String,
  message: Schema.String
}) {}

/** What an upload gives: the file's name, type and content, and a title (the file name when null). */
export interface DocumentUpload<E> {
  readonly filename: string
  readonly contentType: string
  readonly title: string | null
  readonly content: Stream.Stream<Uint8Array, E>
}

/** Where a document's file lives; any name maps to a valid key (`safeFileName`). */
const documentKey = (teamId: TeamId, id: string, name: string) => {
  const key = storageKey(teamId, ["documents", id, safeFileName(name)])
  // An id and a safe file name are always valid segments.
  if (Result.isFailure(key)) throw key.failure
  return key.success
}

/** Storage of documents' metadata, per team. */
export class DocumentsRepo extends Context.Service<
  DocumentsRepo,
  {
    readonly insert: (document: Document) => Effect.Effect<void, PersistenceUnavailable>
    readonly find: (teamId: TeamId, id: string) => Effect.Effect<Option.Option<Document>, PersistenceUnavailable>
    /** The team's documents newest first, up to `page.limit + 1`. */
    readonly list: (teamId: TeamId, page: PageRequest) => Effect.Effect<ReadonlyArray<Document>, PersistenceUnavailable>
    /** Deletes a document; false when the team has none with that id. */
    readonly delete: (teamId: TeamId, id: string) => Effect.Effect<boolean, PersistenceUnavailable>
  }
>()("@svc/domain/DocumentsRepo") {}

/** A team's documents: the file in the vault at `documents/{id}/{name}`, its metadata in the repository. */
export class Documents extends Context.Service<Documents>()("@svc/domain/Documents", {
  make: Effect.gen(function* () {
    const repo = yield* DocumentsRepo
    const storage = yield* FileStorage
    const maxBytes = yield* MaxFileBytes

    const get = Effect.fn("Documents.get")(function* (teamId: TeamId, id: string) {
      const found = yield* repo.find(teamId, id)
      if (Option.isNone(found)) return yield* new DocumentNotFound({ id })
      return found.value
    })

    /**
     * Stores the file (streamed, refused past the file limit) and then its metadata; a document whose metadata
     * cannot be stored leaves no file behind.
     */
    const upload = <E>(
      teamId: TeamId,
      input: DocumentUpload<E>
    ): Effect.Effect<Document, DocumentRefused | FileTooLarge | PersistenceUnavailable | E> =>
      Effect.gen(function* () {
        const contentType = bareContentType(input.contentType)
        if (!DOCUMENT_CONTENT_TYPES.has(contentType)) {
          return yield* new DocumentRefused({
            field: "file",
            message:
              contentType === ""
                ? "the file has no content type"
                : `content type ${contentType} is not allowed; allowed: ${[...DOCUMENT_CONTENT_TYPES].join(", ")}`
          })
        }
        const id = yield* newIdText
        const key = documentKey(teamId, id, input.filename)
        const stored = yield* storage.write(key, input.content, { contentType, maxBytes })
        const document: Document = {
          id,
          teamId,
          title: input.title ?? input.filename,
          name: input.filename,
          contentType,
          size: stored.size,
          path: key,
          createdAt: yield* nowIso
        }
        yield* repo.insert(document).pipe(Effect.onError(() => storage.remove(key).pipe(Effect.ignore)))
        return document
      }).pipe(Effect.withSpan("Documents.upload"))

    /** Deletes the document's metadata, then its file. */
    const remove = Effect.fn("Documents.remove")(function* (teamId: TeamId, id: string) {
      const current = yield* get(teamId, id)
      if (!(yield* repo.delete(teamId, id))) return yield* new DocumentNotFound({ id })
      yield* storage.remove(documentKey(teamId, current.id, current.name))
      return current
    })

    return {
      upload,
      get,
      list: Effect.fn("Documents.list")((teamId: TeamId, page: PageRequest) => repo.list(teamId, page)),
      remove
    }
  })
}) {
  static readonly layer = Layer.effect(Documents, Documents.make)
}

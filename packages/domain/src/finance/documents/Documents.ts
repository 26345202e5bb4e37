import { Context, Effect, Layer, Option, Result, Schema, type Stream } from "effect"
import {
  ContentType,
  FileName,
  FileStorage,
  type FileStoreUnavailable,
  type FileTooLarge,
  MaxFileBytes,
  parseVaultPath,
  storageKey
} from "../../files/index.ts"
import { newIdText, nowIso } from "../../shared/index.ts"
import type { PageRequest, PersistenceUnavailable, TeamId } from "../../shared/model.ts"
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

/** What an upload gives: the file's name and type as sent, its content, and a title (the file name when null). */
export interface DocumentUpload<E> {
  readonly filename: string
  readonly contentType: string
  readonly title: string | null
  readonly content: Stream.Stream<Uint8Array, E>
}

/** Where a document's file lives: `documents/{id}`, made of ids alone (its name is metadata). */
const documentKey = (teamId: TeamId, id: string) => {
  const key = storageKey(teamId, ["documents", id])
  // An id is always a valid segment.
  if (Result.isFailure(key)) throw key.failure
  return key.success
}

/** `value` decoded by `schema`, or the refusal of `field` with the schema's message. */
const checked = <S extends Schema.Top & { readonly DecodingServices: never }>(
  schema: S,
  field: string,
  value: unknown
): Result.Result<S["Type"], DocumentRefused> =>
  Result.mapError(
    Schema.decodeUnknownResult(schema)(value),
    (error) => new DocumentRefused({ field, message: error.message })
  )

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
     * Stores the file (streamed, refused past the file limit) under a key of ids and then its metadata; the name and
     * type are checked before any byte is stored, and a document whose metadata cannot be stored leaves no file behind.
     */
    const upload = <E>(
      teamId: TeamId,
      input: DocumentUpload<E>
    ): Effect.Effect<Document, DocumentRefused | FileTooLarge | FileStoreUnavailable | PersistenceUnavailable | E> =>
      Effect.gen(function* () {
        const name = yield* Effect.fromResult(checked(FileName, "file.filename", input.filename))
        if (input.contentType === "") {
          return yield* new DocumentRefused({ field: "file", message: "the file has no content type" })
        }
        const given = yield* Effect.fromResult(checked(ContentType, "file", input.contentType))
        const contentType = bareContentType(given)
        if (!DOCUMENT_CONTENT_TYPES.has(contentType)) {
          return yield* new DocumentRefused({
            field: "file",
            message: `content type ${contentType} is not allowed; allowed: ${[...DOCUMENT_CONTENT_TYPES].join(", ")}`
          })
        }
        const id = yield* newIdText
        const key = documentKey(teamId, id)
        const stored = yield* storage.write(key, input.content, { name, contentType, maxBytes })
        const document: Document = {
          id,
          teamId,
          title: input.title ?? name,
          name,
          contentType,
          size: stored.size,
          path: key,
          createdAt: yield* nowIso
        }
        yield* repo.insert(document).pipe(Effect.onError(() => storage.remove(key).pipe(Effect.ignore)))
        return document
      }).pipe(Effect.withSpan("Documents.upload"))

    /** Deletes the document's metadata, then its file (at the path the document names). */
    const remove = Effect.fn("Documents.remove")(function* (teamId: TeamId, id: string) {
      const current = yield* get(teamId, id)
      if (!(yield* repo.delete(teamId, id))) return yield* new DocumentNotFound({ id })
      const stored = parseVaultPath(current.path)
      // A document's path is a key the store made, so it always parses.
      if (Result.isFailure(stored)) return yield* Effect.die(stored.failure)
      yield* storage.remove(stored.success.key)
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

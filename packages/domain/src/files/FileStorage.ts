import { Context, type Effect, Schema, type Stream } from "effect"
import type { FileNotFound, FileStoreUnavailable, FileTooLarge } from "./FileErrors.ts"
import type { StorageKey } from "./StorageKey.ts"

/** What the storage port knows of a stored file: where it is, the name it is offered under, its type and size. */
export const StoredFile = Schema.Struct({
  key: Schema.String,
  name: Schema.String,
  contentType: Schema.String,
  size: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))
})
export type StoredFile = typeof StoredFile.Type

/** The default per-file limit: 25 MiB. */
export const DEFAULT_MAX_FILE_BYTES = 25 * 1024 * 1024

/** The largest file the service stores (uploads, inbox attachments): `MAX_FILE_BYTES`, 25 MiB unless configured. */
export const MaxFileBytes = Context.Reference<number>("@svc/domain/MaxFileBytes", {
  defaultValue: () => DEFAULT_MAX_FILE_BYTES
})

/**
 * The file store (`vault/{teamId}/...`). Content moves as streams of chunks, never whole files in memory.
 * A write is all or nothing: a reader sees the previous file or the whole new one, never a part, and a write that
 * fails (too large, the content's own failure, an outage) leaves what was there before. The store never reads or
 * writes through a symbolic link (`FileStoreUnavailable`).
 */
export class FileStorage extends Context.Service<
  FileStorage,
  {
    /**
     * Stores `content` under `key` (replacing a file there) with its name (a `FileName`) and type (a `ContentType`),
     * both checked where they entered; refused with `FileTooLarge` past `maxBytes`.
     */
    readonly write: <E>(
      key: StorageKey,
      content: Stream.Stream<Uint8Array, E>,
      options: { readonly name: string; readonly contentType: string; readonly maxBytes: number }
    ) => Effect.Effect<StoredFile, FileTooLarge | FileStoreUnavailable | E>
    /** The file under `key` and its content, read as it is streamed. */
    readonly read: (key: StorageKey) => Effect.Effect<
      {
        readonly file: StoredFile
        readonly content: Stream.Stream<Uint8Array, FileStoreUnavailable>
      },
      FileNotFound | FileStoreUnavailable
    >
    /** Removes the file under `key`; removing a missing file succeeds. */
    readonly remove: (key: StorageKey) => Effect.Effect<void, FileStoreUnavailable>
  }
>()("@svc/domain/FileStorage") {}

import { FileNotFound, FileStorage, FileTooLarge, type StoredFile } from "@svc/domain"
import { Effect, Layer, Ref, Stream } from "effect"

interface Held {
  readonly file: StoredFile
  readonly chunks: ReadonlyArray<Uint8Array>
}

/**
 * FileStorage in memory. Files are kept apart from the memory store's tables, so rolling back a store transaction
 * does not undo a write: the same as a filesystem or an object store beside a database.
 */
export const FileStorageMemory = Layer.effect(
  FileStorage,
  Effect.gen(function* () {
    const files = yield* Ref.make<ReadonlyMap<string, Held>>(new Map())
    return FileStorage.of({
      write: (key, content, options) =>
        Stream.runFoldEffect(
          content,
          () => ({ size: 0, chunks: [] as Array<Uint8Array> }),
          (acc, chunk) => {
            const size = acc.size + chunk.byteLength
            if (size > options.maxBytes) return Effect.fail(new FileTooLarge({ maxBytes: options.maxBytes }))
            acc.chunks.push(chunk.slice())
            return Effect.succeed({ size, chunks: acc.chunks })
          }
        ).pipe(
          Effect.flatMap(({ size, chunks }) => {
            const file: StoredFile = { key, name: options.name, contentType: options.contentType, size }
            return Ref.update(files, (all) => new Map(all).set(key, { file, chunks })).pipe(Effect.as(file))
          })
        ),
      read: (key) =>
        Ref.get(files).pipe(
          Effect.flatMap((all) => {
            const held = all.get(key)
            return held === undefined
              ? Effect.fail(new FileNotFound({ key }))
              : Effect.succeed({ file: held.file, content: Stream.fromIterable(held.chunks) })
          })
        ),
      remove: (key) =>
        Ref.update(files, (all) => {
          const next = new Map(all)
          next.delete(key)
          return next
        })
    })
  })
)

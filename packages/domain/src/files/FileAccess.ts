import { Context, Effect, Layer } from "effect"
import { FileKeys } from "../identity/index.ts"
import { FileKeyRefused } from "./FileErrors.ts"
import { FileStorage } from "./FileStorage.ts"
import { parseVaultPath } from "./StorageKey.ts"

/**
 * Reading a team's files by file key: the path is checked first (a traversal never reaches the store), then the key
 * against the path's own team (recomputed, compared in constant time), then the file is read as a stream.
 */
export class FileAccess extends Context.Service<FileAccess>()("@svc/domain/FileAccess", {
  make: Effect.gen(function* () {
    const storage = yield* FileStorage
    const keys = yield* FileKeys
    /** The file at a client's vault path (with or without `vault/`), when `fk` is the file key of its team. */
    const open = Effect.fn("FileAccess.open")(function* (path: string, fk: string) {
      const parsed = yield* Effect.fromResult(parseVaultPath(path))
      if (!(yield* keys.opens(parsed.teamId, fk))) return yield* new FileKeyRefused({ teamId: parsed.teamId })
      return yield* storage.read(parsed.key)
    })
    return { open }
  })
}) {
  static readonly layer = Layer.effect(FileAccess, FileAccess.make)
}

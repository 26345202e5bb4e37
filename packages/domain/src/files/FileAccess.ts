import { Clock, Context, Effect, Layer } from "effect"
import { FileKeys } from "../identity/index.ts"
import type { TeamId } from "../shared/model.ts"
import { FileKeyRefused, FileLinkRefused, InvalidFilePath } from "./FileErrors.ts"
import { fileLinkExpiry, fileLinkMillisLeft } from "./FileLinkRules.ts"
import { FileLinks } from "./FileLinks.ts"
import { FileStorage } from "./FileStorage.ts"
import { parseVaultPath } from "./StorageKey.ts"

/** A presigned link as the service states it: the key it opens, its expiry (unix seconds), disposition and signature. */
export interface FileLink {
  readonly key: string
  readonly expires: number
  readonly download: boolean
  readonly signature: string
}

/**
 * Reading a team's files by file key or presigned link: the path is checked first (a traversal never reaches the
 * store), then the key against the path's own team, or the link's signature and expiry (recomputed, compared in
 * constant time), then the file is read as a stream.
 */
export class FileAccess extends Context.Service<FileAccess>()("@svc/domain/FileAccess", {
  make: Effect.gen(function* () {
    const storage = yield* FileStorage
    const keys = yield* FileKeys
    const links = yield* FileLinks
    /** The file at a client's vault path (with or without `vault/`), when `fk` is the file key of its team. */
    const open = Effect.fn("FileAccess.open")(function* (path: string, fk: string) {
      const parsed = yield* Effect.fromResult(parseVaultPath(path))
      if (!(yield* keys.opens(parsed.teamId, fk))) return yield* new FileKeyRefused({ teamId: parsed.teamId })
      return yield* storage.read(parsed.key)
    })
    /**
     * A link to the file `teamId` stores at `path` (a path the service recorded, never a client's), living
     * `lifetimeSeconds` from now. A path outside the team's folder is refused.
     */
    const presign = Effect.fn("FileAccess.presign")(function* (
      teamId: TeamId,
      path: string,
      options: { readonly lifetimeSeconds: number; readonly download: boolean }
    ) {
      const parsed = yield* Effect.fromResult(parseVaultPath(path))
      if (parsed.teamId !== teamId) return yield* new InvalidFilePath({ reason: "not a file of the team" })
      const expires = fileLinkExpiry(yield* Clock.currentTimeMillis, options.lifetimeSeconds)
      const grant = { teamId, key: parsed.key, expires, download: options.download }
      const link: FileLink = {
        key: parsed.key,
        expires,
        download: options.download,
        signature: yield* links.sign(grant)
      }
      return link
    })
    /** The file a presigned link names, when its signature holds and it has not expired; with its milliseconds left. */
    const openLink = Effect.fn("FileAccess.openLink")(function* (link: FileLink) {
      const parsed = yield* Effect.fromResult(parseVaultPath(link.key))
      const grant = { teamId: parsed.teamId, key: parsed.key, expires: link.expires, download: link.download }
      if (!(yield* links.holds(grant, link.signature))) return yield* new FileLinkRefused({ reason: "signature" })
      const millisLeft = fileLinkMillisLeft(yield* Clock.currentTimeMillis, link.expires)
      if (millisLeft <= 0) return yield* new FileLinkRefused({ reason: "expired" })
      return { ...(yield* storage.read(parsed.key)), millisLeft }
    })
    return { open, presign, openLink }
  })
}) {
  static readonly layer = Layer.effect(FileAccess, FileAccess.make)
}

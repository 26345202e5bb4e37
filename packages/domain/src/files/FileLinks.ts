import { Context, Effect, Layer } from "effect"
import { constantTimeEqual, hmacBase64Url, type TeamId } from "../shared/model.ts"
import type { StorageKey } from "./StorageKey.ts"

/**
 * What a presigned file link grants: reading the file at `key` of `teamId` until `expires` (unix seconds), as an
 * attachment (`download`) or inline. Every field is covered by the link's signature.
 */
export interface FileLinkGrant {
  readonly teamId: TeamId
  readonly key: StorageKey
  readonly expires: number
  readonly download: boolean
}

/**
 * The server key behind presigned file links (ADR 0058): a link's signature is an HMAC-SHA256 over its purpose, team,
 * storage key, expiry and disposition, so none can be forged, moved to another file or prolonged.
 */
export class FileLinks extends Context.Service<
  FileLinks,
  {
    /** The signature of a grant, as base64url. */
    readonly sign: (grant: FileLinkGrant) => Effect.Effect<string>
    /** Whether `signature` is the grant's: recomputed and compared in constant time. */
    readonly holds: (grant: FileLinkGrant, signature: string) => Effect.Effect<boolean>
  }
>()("@svc/domain/FileLinks") {
  static readonly layer = (secret: string) => {
    // A JSON array keeps the fields apart whatever a key holds; the purpose keeps the MAC apart from the key's others.
    const sign = (grant: FileLinkGrant) =>
      hmacBase64Url(
        secret,
        JSON.stringify([
          "presigned-file",
          grant.teamId,
          grant.key,
          grant.expires,
          grant.download ? "attachment" : "inline"
        ])
      )
    return Layer.succeed(
      FileLinks,
      FileLinks.of({
        sign,
        holds: (grant, signature) => Effect.map(sign(grant), (expected) => constantTimeEqual(expected, signature))
      })
    )
  }
}

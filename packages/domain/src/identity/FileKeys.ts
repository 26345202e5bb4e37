import { Context, type Effect, Layer } from "effect"
import type { TeamId } from "../shared/index.ts"
import { hmacBase64Url } from "../shared/index.ts"

/** The team file key `fk`: deterministic per team, shared by its members, unforgeable without the server secret. */
export class FileKeys extends Context.Service<
  FileKeys,
  { readonly forTeam: (teamId: TeamId) => Effect.Effect<string> }
>()("@svc/domain/FileKeys") {
  static readonly layer = (secret: string) =>
    Layer.succeed(FileKeys, FileKeys.of({ forTeam: (teamId) => hmacBase64Url(secret, `file-key:${teamId}`) }))
}

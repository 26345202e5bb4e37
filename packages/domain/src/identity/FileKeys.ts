import { Context, Effect, Layer } from "effect"
import { constantTimeEqual, hmacBase64Url } from "../shared/index.ts"
import type { TeamId } from "../shared/model.ts"

/** The team file key `fk`: deterministic per team, shared by its members, unforgeable without the server secret. */
export class FileKeys extends Context.Service<
  FileKeys,
  {
    readonly forTeam: (teamId: TeamId) => Effect.Effect<string>
    /** Whether `fk` is the team's file key: recomputed and compared in constant time. */
    readonly opens: (teamId: TeamId, fk: string) => Effect.Effect<boolean>
  }
>()("@svc/domain/FileKeys") {
  static readonly layer = (secret: string) => {
    const forTeam = (teamId: TeamId) => hmacBase64Url(secret, `file-key:${teamId}`)
    return Layer.succeed(
      FileKeys,
      FileKeys.of({
        forTeam,
        opens: (teamId, fk) => Effect.map(forTeam(teamId), (expected) => constantTimeEqual(expected, fk))
      })
    )
  }
}

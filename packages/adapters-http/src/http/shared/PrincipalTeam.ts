import type { TeamId } from "@svc/domain"
import { Effect } from "effect"
import { CurrentTeamPrincipal, forbidden } from "../../api/shared/index.ts"

/** The team a session, OAuth token or API key acts for; a session user without a team gets 403 `team_required`. */
export const principalTeamId = Effect.gen(function* () {
  const principal = yield* CurrentTeamPrincipal
  if (principal.teamId === null) return yield* forbidden("team_required", "create a team first (POST /teams)")
  return principal.teamId as TeamId
})

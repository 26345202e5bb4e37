import { FileKeys, type TeamId, Teams, type User, userView } from "@svc/domain"
import { Effect, Option } from "effect"
import { CurrentTeamPrincipal } from "../../api/shared/index.ts"

/**
 * The profile GET and PATCH /users/me answer: the user with the team the credential acts for (a session: the user's
 * current team; an OAuth token or API key: its own team), that team's name and currency, and its file key.
 */
export const userProfiles = Effect.gen(function* () {
  const teams = yield* Teams
  const fileKeys = yield* FileKeys
  return Effect.fn("userProfile")(function* (user: User) {
    const principal = yield* CurrentTeamPrincipal
    const teamId: TeamId | null = principal.kind === "session" ? user.currentTeamId : principal.teamId
    if (teamId === null) return userView(user, { teamId, team: null }, null)
    const membership = yield* teams.membership(teamId, user.id).pipe(Effect.option)
    const team = Option.getOrNull(
      Option.map(membership, (m) => ({ id: m.team.id, name: m.team.name, baseCurrency: m.team.baseCurrency }))
    )
    return userView(user, { teamId, team }, yield* fileKeys.forTeam(teamId))
  })
})

import type { Role, TeamId, TeamPrincipal, Teams } from "@svc/domain"
import { Effect, Option } from "effect"
import { CurrentTeamPrincipal, forbidden, notFound } from "../../api/shared/index.ts"

/** The team the caller acts for and their role in it (403 `team_required` for a session user with no team yet). */
export const principalTeam = Effect.gen(function* () {
  const principal = yield* CurrentTeamPrincipal
  if (principal.teamId === null) return yield* forbidden("team_required", "create a team first (POST /teams)")
  return { principal, teamId: principal.teamId as TeamId, role: principal.role ?? ("member" as Role) }
})

/** The team a session, OAuth token or API key acts for; a session user without a team gets 403 `team_required`. */
export const principalTeamId = Effect.map(principalTeam, (team) => team.teamId)

/**
 * The caller's role in the team `teamId` names: a session reaches each team its user belongs to, an OAuth token or API
 * key only its own team. Any other team is 404, as if it did not exist.
 */
export const roleInTeam = (teams: Teams["Service"], teamId: string) =>
  Effect.gen(function* () {
    const principal: TeamPrincipal = yield* CurrentTeamPrincipal
    const missing = notFound(`no team ${teamId}`)
    if (principal.kind === "session") {
      const membership = yield* teams.listForUser(principal.userId)
      const found = Option.fromNullishOr(membership.find((m) => m.team.id === teamId))
      if (Option.isNone(found)) return yield* missing
      return { principal, teamId: found.value.team.id, role: found.value.role }
    }
    if (principal.teamId !== teamId || principal.role === null) return yield* missing
    return { principal, teamId: principal.teamId, role: principal.role }
  })

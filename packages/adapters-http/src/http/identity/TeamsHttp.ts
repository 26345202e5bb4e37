import { FileKeys, type Membership, type TeamId, Teams, UsersRepo } from "@svc/domain"
import { Effect, Option } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../api/Api.ts"
import { CurrentTeamPrincipal, CurrentUser, forbidden } from "../../api/shared/index.ts"
import { orServiceUnavailable, pageOfList } from "../shared/index.ts"

const teamResponse = (m: Membership) => ({
  id: m.team.id,
  object: "team" as const,
  name: m.team.name,
  baseCurrency: m.team.baseCurrency,
  role: m.role,
  createdAt: m.team.createdAt
})

export const TeamsHttp = HttpApiBuilder.group(Api, "teams", (handlers) =>
  Effect.gen(function* () {
    const teams = yield* Teams
    return handlers.handle("create", ({ payload }) =>
      Effect.gen(function* () {
        const user = yield* CurrentUser
        const team = yield* teams.create(
          { id: user.id, email: user.email, fullName: user.fullName },
          { name: payload.name, baseCurrency: payload.baseCurrency }
        )
        return teamResponse({ team, role: "owner" })
      }).pipe(orServiceUnavailable)
    )
  })
)

export const MeHttp = HttpApiBuilder.group(Api, "me", (handlers) =>
  Effect.gen(function* () {
    const teams = yield* Teams
    const users = yield* UsersRepo
    const fileKeys = yield* FileKeys
    return handlers
      .handle("listTeams", ({ query }) =>
        Effect.gen(function* () {
          const principal = yield* CurrentTeamPrincipal
          const memberships = yield* teams.listForUser(principal.userId)
          const visible =
            principal.kind === "session" ? memberships : memberships.filter((m) => m.team.id === principal.teamId)
          return yield* pageOfList(query, visible.map(teamResponse), (team) => team)
        }).pipe(orServiceUnavailable)
      )
      .handle("me", () =>
        Effect.gen(function* () {
          const principal = yield* CurrentTeamPrincipal
          const user = yield* users.findById(principal.userId)
          if (Option.isNone(user))
            return yield* forbidden("forbidden", "the user behind this credential no longer exists")
          const teamId: TeamId | null = principal.kind === "session" ? user.value.currentTeamId : principal.teamId
          return {
            id: user.value.id,
            email: user.value.email,
            fullName: user.value.fullName,
            teamId,
            fileKey: teamId === null ? null : yield* fileKeys.forTeam(teamId)
          }
        }).pipe(orServiceUnavailable)
      )
  })
)

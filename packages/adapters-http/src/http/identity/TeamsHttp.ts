import { TeamOpening, Teams, teamView, UsersRepo } from "@svc/domain"
import { Effect, Option } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../api/Api.ts"
import { CurrentTeamPrincipal, CurrentUser, forbidden } from "../../api/shared/index.ts"
import { listPaging, orServiceUnavailable } from "../shared/index.ts"
import { userProfiles } from "./UserProfile.ts"

export const TeamsHttp = HttpApiBuilder.group(Api, "teams", (handlers) =>
  Effect.gen(function* () {
    const opening = yield* TeamOpening
    return handlers.handle("create", ({ payload }) =>
      Effect.gen(function* () {
        const user = yield* CurrentUser
        const team = yield* opening.open(
          { id: user.id, email: user.email, fullName: user.fullName },
          { name: payload.name, baseCurrency: payload.baseCurrency }
        )
        return teamView({ team, role: "owner" })
      }).pipe(orServiceUnavailable)
    )
  })
)

export const MeHttp = HttpApiBuilder.group(Api, "me", (handlers) =>
  Effect.gen(function* () {
    const { pageOfList } = yield* listPaging
    const teams = yield* Teams
    const users = yield* UsersRepo
    const userProfile = yield* userProfiles
    return handlers
      .handle("listTeams", ({ query }) =>
        Effect.gen(function* () {
          const principal = yield* CurrentTeamPrincipal
          const memberships = yield* teams.listForUser(principal.userId)
          const visible =
            principal.kind === "session" ? memberships : memberships.filter((m) => m.team.id === principal.teamId)
          return yield* pageOfList(`teams:${principal.userId}`, query, visible.map(teamView), (team) => team)
        }).pipe(orServiceUnavailable)
      )
      .handle("me", () =>
        Effect.gen(function* () {
          const principal = yield* CurrentTeamPrincipal
          const user = yield* users.findById(principal.userId)
          if (Option.isNone(user))
            return yield* forbidden("forbidden", "the user behind this credential no longer exists")
          return yield* userProfile(user.value)
        }).pipe(orServiceUnavailable)
      )
  })
)

import { type Role, type TeamId, TeamsRepo, type UserId, UsersRepo } from "@svc/domain"
import { Effect } from "effect"
import { sessionToken } from "./InProcessApp.ts"

/** The session token of a new user who joined `teamId` as `role` and works in it (their current team). */
export const memberToken = (teamId: TeamId, role: Role) =>
  Effect.gen(function* () {
    const id = crypto.randomUUID() as UserId
    const email = `${role}-${id}@example.com`
    yield* UsersRepo.use((users) => users.ensure({ id, email, fullName: null }))
    yield* TeamsRepo.use((teams) => teams.addMember(teamId, id, role))
    yield* UsersRepo.use((users) => users.setCurrentTeam(id, teamId))
    return { id, token: yield* Effect.promise(() => sessionToken({ id, email })) }
  })

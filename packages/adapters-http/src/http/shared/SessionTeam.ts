import { type Membership, mayManageKeys, type Teams } from "@svc/domain"
import { Effect, Option } from "effect"
import { CurrentUser, forbidden } from "../../api/shared/index.ts"
import { orServiceUnavailable } from "./Failures.ts"

/** The session user's current team, when they are its owner or admin (403 otherwise, saying what only they may do). */
export const currentTeamAsAdmin = (teams: Teams["Service"], action = "manage keys and policies") =>
  Effect.gen(function* () {
    const user = yield* CurrentUser
    const membership = yield* teams.current(user)
    if (Option.isNone(membership)) {
      return yield* forbidden("team_required", "create a team first (POST /teams)")
    }
    if (!mayManageKeys(membership.value.role)) {
      return yield* forbidden("forbidden", `only team owners and admins ${action}`)
    }
    return membership.value as Membership
  }).pipe(orServiceUnavailable)

import { KnownCurrency, TeamView, UserView } from "@svc/domain/model"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import {
  CommonErrors,
  Forbidden,
  ListOf,
  ListQuery,
  PlatformAuth,
  RequiredScope,
  SessionAuth
} from "../shared/index.ts"

/** A team as its member sees it. */
export const TeamResponse = TeamView

/** The signed-in user, with the team file key of SPEC.md's File access section. */
export const UserResponse = UserView

export const CreateTeamRequest = Schema.Struct({
  name: Schema.String.check(
    Schema.isTrimmed({ message: "must not start or end with spaces" }),
    Schema.isBetweenLength(1, 200)
  ),
  baseCurrency: Schema.optionalKey(KnownCurrency)
})

/** Creating teams: session only. */
export class TeamsApi extends HttpApiGroup.make("teams")
  .add(
    HttpApiEndpoint.post("create", "/teams", {
      payload: CreateTeamRequest,
      success: TeamResponse.pipe(HttpApiSchema.status(201)),
      error: CommonErrors
    })
      .annotate(OpenApi.Summary, "Create a team")
      .annotate(
        OpenApi.Description,
        "Creates a team with the caller as owner, makes it their current team, opens a live and a test USD spend account, " +
          "and gives it the standard taxonomy of transaction categories."
      )
  )
  .middleware(SessionAuth) {}

/** The caller and their teams: session, OAuth or generic API key. */
export class MeApi extends HttpApiGroup.make("me")
  .add(
    HttpApiEndpoint.get("listTeams", "/teams", {
      query: ListQuery,
      success: ListOf(TeamResponse),
      error: [...CommonErrors, Forbidden]
    })
      .annotate(RequiredScope, "teams.read")
      .annotate(OpenApi.Summary, "List my teams")
      .annotate(OpenApi.Description, "The caller's teams, newest first."),
    HttpApiEndpoint.get("me", "/users/me", { success: UserResponse, error: [...CommonErrors, Forbidden] })
      .annotate(RequiredScope, "users.read")
      .annotate(OpenApi.Summary, "Get the signed-in user")
      .annotate(
        OpenApi.Description,
        "The signed-in user with their display preferences (null until set), the team the credential acts for " +
          "(`teamId`, and `team` with its name and base currency) and the team file key `fileKey`."
      )
  )
  .middleware(PlatformAuth) {}

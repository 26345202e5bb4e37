import { MAX_PERSONAL_TOKEN_DAYS, PersonalTokenView } from "@svc/domain/model"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import {
  CommonErrors,
  DashboardSessionAuth,
  Forbidden,
  ListOf,
  ListQuery,
  NotFound,
  UuidParam,
  WithSecret
} from "../shared/index.ts"

/** What creating a personal token takes: a name, and how many days it works (90 unless given). */
export const CreatePersonalTokenRequest = Schema.Struct({
  name: Schema.String.check(
    Schema.isTrimmed({ message: "must not start or end with spaces" }),
    Schema.isBetweenLength(1, 100, { message: "must be 1 to 100 characters" })
  ).annotate({ description: "What the token is for, to recognise it later.", examples: ["laptop CLI"] }),
  expiresInDays: Schema.optionalKey(
    Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: MAX_PERSONAL_TOKEN_DAYS })).annotate({
      description: `How many days the token works, 1 to ${MAX_PERSONAL_TOKEN_DAYS}; 90 when left out.`,
      examples: [30]
    })
  )
})

/** A personal token just created: its secret, this once. */
export const CreatedPersonalTokenResponse = WithSecret(PersonalTokenView)

const errors = [...CommonErrors, Forbidden] as const

/**
 * The signed-in person's personal tokens (ADR 0057): made, listed and revoked from the dashboard, so only with the
 * dashboard's cookie session (a token cannot make more tokens).
 */
export class PersonalTokensApi extends HttpApiGroup.make("personalTokens")
  .add(
    HttpApiEndpoint.post("create", "/auth/personal-tokens", {
      payload: CreatePersonalTokenRequest,
      success: CreatedPersonalTokenResponse.pipe(HttpApiSchema.status(201)),
      error: errors
    })
      .annotate(OpenApi.Summary, "Create a personal token")
      .annotate(
        OpenApi.Description,
        "A bearer credential (`svcsess_…`) that acts as the signed-in person, in their current team with their role, " +
          "on the routes a session reaches (`/treasury/*` approvals, `GET /users/me`, settings), never on `/v1`: what " +
          "`svc login --token` takes for `svc approvals`. The secret is answered this once; it is stored only as its " +
          "SHA-256 hash."
      ),
    HttpApiEndpoint.get("list", "/auth/personal-tokens", {
      query: ListQuery,
      success: ListOf(PersonalTokenView),
      error: errors
    })
      .annotate(OpenApi.Summary, "List my personal tokens")
      .annotate(OpenApi.Description, "The signed-in person's tokens that still work, newest first (never a secret)."),
    HttpApiEndpoint.delete("revoke", "/auth/personal-tokens/:id", {
      params: { id: UuidParam },
      success: PersonalTokenView,
      error: [...errors, NotFound]
    })
      .annotate(OpenApi.Summary, "Revoke a personal token")
      .annotate(
        OpenApi.Description,
        "The token stops working at once (401). Another person's token, or one already revoked or expired, is 404."
      )
  )
  .middleware(DashboardSessionAuth) {}

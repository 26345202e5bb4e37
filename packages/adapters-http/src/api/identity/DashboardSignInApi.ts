import { DashboardSessionView, SignInLinkRequestView } from "@svc/domain/model"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import {
  BadRequest,
  DashboardSessionAuth,
  EmailAddress,
  Forbidden,
  InternalError,
  ServiceUnavailable,
  Unauthorized
} from "../shared/index.ts"

/** What asking for a sign-in link takes: the address to mail it to. */
export const SignInLinkRequest = Schema.Struct({
  email: EmailAddress({ padded: true })
})

/** What signing in takes: the token of the link's fragment. */
export const SignInRequest = Schema.Struct({ token: Schema.String.check(Schema.isBetweenLength(1, 512)) })

const publicErrors = [BadRequest, InternalError, ServiceUnavailable] as const

/** Dashboard sign-in: ask for a one-time link, exchange it for a session cookie (public). */
export class DashboardSignInApi extends HttpApiGroup.make("dashboardSignIn").add(
  HttpApiEndpoint.post("requestLink", "/auth/sign-in-links", {
    payload: SignInLinkRequest,
    success: SignInLinkRequestView.pipe(HttpApiSchema.status(202)),
    error: publicErrors
  })
    .annotate(OpenApi.Summary, "Ask for a sign-in link")
    .annotate(
      OpenApi.Description,
      "Queues the request; moments later a one-time sign-in link, valid 15 minutes, is mailed to the address when " +
        "it belongs to a user (per 15 minutes at most 5 links per address and client, 20 per address in all). The " +
        "answer, and the work done before it, are the same for every address, known or not."
    ),
  HttpApiEndpoint.post("signIn", "/auth/sessions", {
    payload: SignInRequest,
    success: DashboardSessionView.pipe(HttpApiSchema.status(201)),
    error: publicErrors
  })
    .annotate(OpenApi.Summary, "Sign in with a link")
    .annotate(
      OpenApi.Description,
      "Consumes the link's token (once) and opens a dashboard session: sets the HttpOnly `svc_session` cookie and " +
        "answers the session's CSRF token, to send as `x-csrf-token` on POST, PUT, PATCH and DELETE. An unknown, " +
        "malformed, expired or used token is 400 invalid_sign_in_link."
    )
) {}

/** The dashboard session of the cookie: read it, end it. */
export class DashboardSessionApi extends HttpApiGroup.make("dashboardSession")
  .add(
    HttpApiEndpoint.get("current", "/auth/session", {
      success: DashboardSessionView,
      error: [...publicErrors, Unauthorized]
    })
      .annotate(OpenApi.Summary, "Get the dashboard session")
      .annotate(OpenApi.Description, "The cookie's session: its user, when it ends and its CSRF token."),
    HttpApiEndpoint.delete("signOut", "/auth/session", {
      success: HttpApiSchema.NoContent,
      error: [...publicErrors, Unauthorized, Forbidden]
    })
      .annotate(OpenApi.Summary, "Sign out")
      .annotate(OpenApi.Description, "Revokes the cookie's session at once and clears the cookie.")
  )
  .middleware(DashboardSessionAuth) {}

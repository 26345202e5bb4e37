import { ApplicationDetails, OAuthApplicationStatus, OAuthApplicationView } from "@svc/domain/model"
import { Schema, Struct } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import {
  CommonErrors,
  Conflict,
  Forbidden,
  ListOf,
  ListQuery,
  NotFound,
  SessionAuth,
  UuidParam,
  WithSecret
} from "../shared/index.ts"

/** An OAuth application as its team sees it: never the client secret. */
export const OAuthApplicationManaged = OAuthApplicationView

const WithClientSecret = WithSecret(OAuthApplicationManaged)
const details = ApplicationDetails.fields
const optional = Struct.map(details, Schema.optionalKey)

/** A new application: name, redirect URIs and scopes are required; the rest defaults to empty. */
export const CreateOAuthApplicationRequest = Schema.Struct({
  ...optional,
  name: details.name,
  redirectUris: details.redirectUris,
  scopes: details.scopes
})

const errors = [...CommonErrors, Forbidden] as const
const id = { id: UuidParam }

/** The session team's own OAuth applications (owners and admins; the review status by the owner). */
export class OAuthApplicationsApi extends HttpApiGroup.make("oauthApplications")
  .add(
    HttpApiEndpoint.post("create", "/oauth-applications", {
      payload: CreateOAuthApplicationRequest,
      success: WithClientSecret.pipe(HttpApiSchema.status(201)),
      error: errors
    })
      .annotate(OpenApi.Summary, "Create an OAuth application")
      .annotate(
        OpenApi.Description,
        "Creates a confidential client in `draft` status. Redirect URIs follow the `/oauth/register` rule: https, http " +
          "only on localhost or 127.0.0.1, or a private-use scheme; never a fragment or credentials. `scopes` come from " +
          "the OAuth scope list. The `mid_client_secret_` secret is in `secret`, shown this once; it is stored hashed."
      ),
    HttpApiEndpoint.get("list", "/oauth-applications", {
      query: ListQuery,
      success: ListOf(OAuthApplicationManaged),
      error: errors
    })
      .annotate(OpenApi.Summary, "List OAuth applications")
      .annotate(
        OpenApi.Description,
        "The team's applications, newest first: those it created and those registered at `/oauth/register` that it " +
          "authorized first. Never their secrets."
      ),
    HttpApiEndpoint.get("get", "/oauth-applications/:id", {
      params: id,
      success: OAuthApplicationManaged,
      error: [...errors, NotFound]
    }).annotate(OpenApi.Summary, "Get an OAuth application"),
    HttpApiEndpoint.patch("update", "/oauth-applications/:id", {
      params: id,
      payload: Schema.Struct(optional),
      success: OAuthApplicationManaged,
      error: [...errors, NotFound]
    })
      .annotate(OpenApi.Summary, "Update an OAuth application")
      .annotate(
        OpenApi.Description,
        "Changes the given fields (null clears an optional one). New redirect URIs and scopes apply to the next " +
          "authorization; tokens already issued keep their scopes."
      ),
    HttpApiEndpoint.post("rotateSecret", "/oauth-applications/:id/rotate-secret", {
      params: id,
      success: WithClientSecret,
      error: [...errors, NotFound, Conflict]
    })
      .annotate(OpenApi.Summary, "Rotate an OAuth application's client secret")
      .annotate(
        OpenApi.Description,
        "Issues a new client secret, returned once in `secret`; the previous one stops working at once. A public " +
          "client (registered without a secret) answers 409 `oauth_application_public`."
      ),
    HttpApiEndpoint.post("setStatus", "/oauth-applications/:id/status", {
      params: id,
      payload: Schema.Struct({ status: OAuthApplicationStatus }),
      success: OAuthApplicationManaged,
      error: [...errors, NotFound, Conflict]
    })
      .annotate(OpenApi.Summary, "Change an OAuth application's review status")
      .annotate(
        OpenApi.Description,
        "The team owner moves the application along `draft` → `pending` → `approved` or `rejected` (a pending one may " +
          "go back to `draft`, a rejected one be submitted again, an approved one be rejected). Other moves answer 409 " +
          "`invalid_status_transition` naming both statuses; asking for the current status changes nothing. The owning " +
          "team may authorize its application in any status but `rejected`; other teams only an `approved` one."
      )
  )
  .middleware(SessionAuth) {}

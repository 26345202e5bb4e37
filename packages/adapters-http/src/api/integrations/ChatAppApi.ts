import { ChatIntegrationView } from "@svc/domain/model"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import {
  BadRequest,
  CommonErrors,
  DashboardAuth,
  Forbidden,
  InternalError,
  NotFound,
  RequiredScope,
  ServiceUnavailable
} from "../shared/index.ts"

const Required = Schema.String.check(Schema.isBetweenLength(1, 2000, { message: "expected 1 to 2000 characters" }))

/** The answer of GET /apps/chat/install-url. */
export const ChatInstallUrlResponse = Schema.Struct({
  url: Schema.String.annotate({ format: "uri", description: "The chat platform's authorize page for this team" })
})

/** A team's chat integration as answered: never its bot token. */
export const ChatIntegrationResponse = ChatIntegrationView

const errors = [...CommonErrors, Forbidden] as const
const NOT_CONFIGURED = "503 `chat_app_not_configured` while the service has no chat app credentials."

/** The chat platform app: installing it for the team, its OAuth callback, reading and removing the integration. */
export class ChatAppApi extends HttpApiGroup.make("chatApp")
  .add(
    HttpApiEndpoint.get("installUrl", "/apps/chat/install-url", {
      success: ChatInstallUrlResponse,
      error: errors
    })
      .annotate(RequiredScope, "teams.write")
      .annotate(OpenApi.Summary, "Get the chat app's install URL")
      .annotate(
        OpenApi.Description,
        "The chat platform's authorize URL with the app's client id, scopes, this service's callback and a signed " +
          "`state` naming the team and the user, good for 10 minutes and for one use. The answer also sets the " +
          "HttpOnly cookie `svc_chat_install` (path /apps/chat/oauth-callback, SameSite=Lax): the callback accepts " +
          "the state only from the browser holding it, so open the URL in the browser that made this request " +
          "(the dashboard does). Owners and admins only (403 otherwise). " +
          NOT_CONFIGURED
      ),
    HttpApiEndpoint.get("get", "/apps/chat", {
      success: ChatIntegrationResponse,
      error: [...errors, NotFound]
    })
      .annotate(RequiredScope, "teams.read")
      .annotate(OpenApi.Summary, "Get the team's chat integration")
      .annotate(
        OpenApi.Description,
        "The workspace and channel the chat app is installed in, its scopes, who installed it and when; never its " +
          `token. 404 when the team has not installed it. ${NOT_CONFIGURED}`
      ),
    HttpApiEndpoint.delete("remove", "/apps/chat", {
      success: ChatIntegrationResponse,
      error: [...errors, NotFound]
    })
      .annotate(RequiredScope, "teams.write")
      .annotate(OpenApi.Summary, "Remove the chat app")
      .annotate(
        OpenApi.Description,
        "Removes the team's chat integration (owners and admins; recorded in the audit log as " +
          "`chat_integration.removed`), revokes its bot token at the chat platform, and answers the integration " +
          `removed. The integration is removed even when the platform cannot revoke the token. ${NOT_CONFIGURED}`
      )
  )
  .middleware(DashboardAuth)
  .add(
    HttpApiEndpoint.get("oauthCallback", "/apps/chat/oauth-callback", {
      query: { code: Required, state: Required },
      success: HttpApiSchema.Empty(302).annotate({
        description: "Installed: the `Location` header sends the browser to the dashboard's integration settings"
      }),
      error: [BadRequest, InternalError, ServiceUnavailable]
    })
      .annotate(OpenApi.Summary, "Chat app OAuth callback")
      .annotate(
        OpenApi.Description,
        "Where the chat platform sends the browser after a user approves the install. Checks `state` (400 " +
          "`invalid_state` when it is malformed, forged, expired, its user no longer manages the team, the browser " +
          "does not hold the `svc_chat_install` cookie GET /apps/chat/install-url set with it, or it was used " +
          "before: a state is used once, even by concurrent callbacks), clears that cookie, exchanges " +
          "`code` at the platform's token endpoint (400 `chat_exchange_refused` with the platform's error code when " +
          "it refuses; 500 when it cannot be reached), stores the integration with its bot token encrypted, recorded " +
          `in the audit log (\`chat_integration.installed\`), and redirects (302). ${NOT_CONFIGURED}`
      )
  ) {}

import { InboxAccountView } from "@svc/domain/model"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import {
  CommonErrors,
  Forbidden,
  ListOf,
  ListQuery,
  NotFound,
  PlatformAuth,
  RequiredScope,
  UuidParam
} from "../shared/index.ts"

/** What GET /apps/mail/install-url answers: the provider's consent page for the team. */
export const MailInstallUrl = Schema.Struct({
  url: Schema.String.annotate({ format: "uri", description: "The mail provider's authorization URL" })
})

/** What DELETE /inbox/accounts/:id answers: the id of the account that is gone. */
export const DeletedInboxAccount = Schema.Struct({
  id: Schema.String,
  object: Schema.Literal("inbox_account"),
  deleted: Schema.Literal(true)
})

const errors = [...CommonErrors, Forbidden] as const

/** A team's connected mailboxes: connecting one, listing and disconnecting them. Session, OAuth or API key. */
export class MailAccountsApi extends HttpApiGroup.make("mailAccounts")
  .add(
    HttpApiEndpoint.get("installUrl", "/apps/mail/install-url", { success: MailInstallUrl, error: errors })
      .annotate(RequiredScope, "inbox.write")
      .annotate(OpenApi.Summary, "Get the mail app's install URL")
      .annotate(
        OpenApi.Description,
        "The mail provider's consent page for the caller's team, carrying an encrypted `state` (a JWE naming the " +
          "team and the caller) that holds 10 minutes and one use; the provider then sends the person to " +
          "GET /apps/mail/oauth-callback. The answer also sets the HttpOnly cookie `svc_mail_install` (path " +
          "/apps/mail/oauth-callback, SameSite=Lax): the callback accepts the state only from the browser holding " +
          "it, so open the URL in the browser that made this request. Owners and admins only (403 otherwise); 503 " +
          "`mail_app_not_configured` when the service has no mail app credentials."
      ),
    HttpApiEndpoint.get("list", "/inbox/accounts", {
      query: ListQuery,
      success: ListOf(InboxAccountView),
      error: errors
    })
      .annotate(RequiredScope, "inbox.read")
      .annotate(OpenApi.Summary, "List connected mailboxes")
      .annotate(
        OpenApi.Description,
        "The team's inbox accounts, newest first: address, `status` (`connected`, or `disconnected` with " +
          "`lastError`) and when the access token lapses. Tokens are never answered."
      ),
    HttpApiEndpoint.delete("disconnect", "/inbox/accounts/:id", {
      params: { id: UuidParam },
      success: DeletedInboxAccount,
      error: [...errors, NotFound]
    })
      .annotate(RequiredScope, "inbox.write")
      .annotate(OpenApi.Summary, "Disconnect a mailbox")
      .annotate(
        OpenApi.Description,
        "Revokes the account's grant at the mail provider and deletes the account with its tokens; when the " +
          "provider cannot be reached the account is deleted all the same. Owners and admins only (403 otherwise)."
      )
  )
  .middleware(PlatformAuth) {}

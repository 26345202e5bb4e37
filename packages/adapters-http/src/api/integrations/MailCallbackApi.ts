import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { BadRequest, InternalError, ServiceUnavailable } from "../shared/index.ts"

/** 500: the mail provider did not complete the code exchange (the team is notified). */
export class MailExchangeFailed extends Schema.Error<MailExchangeFailed>("MailExchangeFailed")(
  { error: Schema.Literal("mail_exchange_failed"), code: Schema.Literal(500), message: Schema.String },
  { httpApiStatus: 500, description: "The mail provider did not complete the code exchange" }
) {}

const Text = (description: string) =>
  Schema.String.check(Schema.isBetweenLength(1, 4096, { message: "expected 1 to 4096 characters" })).annotate({
    description
  })

/** A 302 to the dashboard. */
const Redirect = HttpApiSchema.WithHeaders(HttpApiSchema.Empty(302), {
  location: Schema.String.annotate({ description: "The dashboard's inbox page, with `connected=1` or `error=...`" })
})

/** Where the mail provider sends the person back: no bearer credential, the encrypted `state` instead. */
export class MailCallbackApi extends HttpApiGroup.make("mailCallback").add(
  HttpApiEndpoint.get("oauthCallback", "/apps/mail/oauth-callback", {
    query: {
      code: Schema.optionalKey(Text("The authorization code, absent when the authorization failed")),
      state: Text("The encrypted state GET /apps/mail/install-url put in the consent URL"),
      error: Schema.optionalKey(Text("The provider's error code, set when the authorization failed"))
    },
    success: Redirect,
    error: [BadRequest, MailExchangeFailed, InternalError, ServiceUnavailable]
  })
    .annotate(OpenApi.Summary, "Complete a mailbox connection")
    .annotate(
      OpenApi.Description,
      "The mail provider's OAuth 2.0 redirect. The `state` must be one this service issued, unexpired, naming a " +
        "person still an owner or admin of its team, presented by the browser holding the `svc_mail_install` " +
        "cookie GET /apps/mail/install-url set with it, and not used before (else 400 `invalid_state`; a state is " +
        "used once, even by concurrent callbacks, and the cookie is cleared). With `error` the team is notified " +
        "and the person sent (302) to the dashboard with `?error=`; otherwise the `code` (400 naming it when " +
        "absent) is exchanged at the provider's token endpoint, the address read from its userinfo endpoint, and " +
        "the inbox account created, or updated when the team had the address already, before a 302 to the " +
        "dashboard with `?connected=1`. A failed exchange is 500 `mail_exchange_failed` and notifies the team."
    )
) {}

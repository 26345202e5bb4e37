import { MailConnection } from "@svc/domain"
import { Effect } from "effect"
import { HttpApiBuilder, HttpApiSchema } from "effect/http-api"
import { Api } from "../../api/Api.ts"
import { MailExchangeFailed } from "../../api/integrations/index.ts"
import { badRequest } from "../../api/shared/index.ts"
import { orServiceUnavailable } from "../shared/index.ts"
import { DashboardUrl } from "./DashboardUrl.ts"
import { installCookie, MAIL_INSTALL_COOKIE } from "./InstallCookies.ts"
import { mailAppNotConfigured } from "./MailFailures.ts"

export const MailCallbackHttp = HttpApiBuilder.group(Api, "mailCallback", (handlers) =>
  Effect.gen(function* () {
    const mail = yield* MailConnection
    const dashboard = yield* DashboardUrl
    const cookie = yield* installCookie(MAIL_INSTALL_COOKIE)
    /** The dashboard's inbox page with one query parameter saying how the connection ended. */
    const inboxPage = (name: string, value: string) => {
      const url = new URL(`${dashboard}/inbox`)
      url.searchParams.set(name, value)
      return url.toString()
    }
    return handlers.handle("oauthCallback", ({ query }) =>
      Effect.flatMap(cookie.take, (browserSecret) => mail.callback({ ...query, browserSecret })).pipe(
        Effect.map((outcome) =>
          HttpApiSchema.withHeaders({
            body: undefined,
            headers: {
              location: outcome._tag === "Connected" ? inboxPage("connected", "1") : inboxPage("error", outcome.error)
            }
          })
        ),
        Effect.catchTags({
          MailCallbackInvalid: (e) =>
            Effect.fail(
              badRequest(e.field === "state" ? "invalid_state" : "validation_failed", `${e.field}: ${e.message}`, [
                { path: e.field, message: e.message }
              ])
            ),
          MailProviderFailed: (e) =>
            Effect.fail(new MailExchangeFailed({ error: "mail_exchange_failed", code: 500, message: e.reason })),
          MailAppNotConfigured: mailAppNotConfigured
        }),
        orServiceUnavailable
      )
    )
  })
)

import { inboxAccountView, MailConnection, type MailConnectionForbidden, toPage } from "@svc/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../api/Api.ts"
import { forbidden, notFound } from "../../api/shared/index.ts"
import { listPaging, orServiceUnavailable, principalTeam } from "../shared/index.ts"
import { installCookie, MAIL_INSTALL_COOKIE } from "./InstallCookies.ts"
import { mailAppNotConfigured } from "./MailFailures.ts"

const connectionForbidden = (e: MailConnectionForbidden) =>
  Effect.fail(forbidden("forbidden", `only the team's owners and admins may ${e.action}`))

/** The team a person acts for, as the mailboxes' actor. */
const actor = Effect.map(principalTeam, ({ principal, teamId, role }) => ({ teamId, userId: principal.userId, role }))

export const MailAccountsHttp = HttpApiBuilder.group(Api, "mailAccounts", (handlers) =>
  Effect.gen(function* () {
    const mail = yield* MailConnection
    const { pageOf, signedPage } = yield* listPaging
    const cookie = yield* installCookie(MAIL_INSTALL_COOKIE)
    return handlers
      .handle("installUrl", () =>
        Effect.gen(function* () {
          const started = yield* mail.installUrl(yield* actor)
          yield* cookie.give(started.browserSecret)
          return { url: started.url }
        }).pipe(
          Effect.catchTags({ MailConnectionForbidden: connectionForbidden, MailAppNotConfigured: mailAppNotConfigured })
        )
      )
      .handle("list", ({ query }) =>
        Effect.gen(function* () {
          const { teamId } = yield* principalTeam
          const scope = `inbox-accounts:${teamId}`
          const page = yield* pageOf(scope, query)
          return yield* signedPage(scope, toPage(page, yield* mail.list(teamId, page), inboxAccountView))
        }).pipe(orServiceUnavailable)
      )
      .handle("disconnect", ({ params }) =>
        Effect.gen(function* () {
          const removed = yield* mail.disconnect(yield* actor, params.id)
          return { id: removed.id, object: "inbox_account" as const, deleted: true as const }
        }).pipe(
          Effect.catchTags({
            InboxAccountNotFound: () => Effect.fail(notFound(`no inbox account ${params.id}`)),
            MailConnectionForbidden: connectionForbidden
          }),
          orServiceUnavailable
        )
      )
  })
)

import {
  ChatApp,
  type ChatAppForbidden,
  type ChatInstallStateInvalid,
  type ChatPlatformRefused,
  chatIntegrationView,
  type InstallStateRefused
} from "@svc/domain"
import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../api/Api.ts"
import { badRequest, forbidden, InternalError, notFound, serviceUnavailable } from "../../api/shared/index.ts"
import { orServiceUnavailable, principalTeam } from "../shared/index.ts"
import { CHAT_INSTALL_COOKIE, installCookie } from "./InstallCookies.ts"

const notConfigured = () =>
  Effect.fail(serviceUnavailable("the chat app is not configured on this service", "chat_app_not_configured"))
const manageForbidden = (e: ChatAppForbidden) =>
  Effect.fail(forbidden("forbidden", `only the team's owners and admins may ${e.action}`))
const missing = () => Effect.fail(notFound("the team has not installed the chat app"))

const STATE_MESSAGES: Record<ChatInstallStateInvalid["reason"] | InstallStateRefused["reason"], string> = {
  malformed: "not a state this service issued",
  forged: "not a state this service issued",
  expired: "expired: start the install again",
  other_browser: "not started in this browser: open the install URL in the browser that asked for it",
  used: "already used: start the install again"
}
const invalidState = (message: string) =>
  badRequest("invalid_state", `invalid request: state: ${message}`, [{ path: "state", message }])

/** The person acting on the team's chat app. */
const actor = Effect.map(principalTeam, ({ principal, teamId, role }) => ({ teamId, userId: principal.userId, role }))

export const ChatAppHttp = HttpApiBuilder.group(Api, "chatApp", (handlers) =>
  Effect.gen(function* () {
    const chat = yield* ChatApp
    const cookie = yield* installCookie(CHAT_INSTALL_COOKIE)
    return handlers
      .handle("installUrl", () =>
        Effect.gen(function* () {
          const started = yield* chat.installUrl(yield* actor)
          yield* cookie.give(started.browserSecret)
          return { url: started.url }
        }).pipe(
          Effect.catchTags({ ChatAppNotConfigured: notConfigured, ChatAppForbidden: manageForbidden }),
          orServiceUnavailable
        )
      )
      .handle("get", () =>
        Effect.gen(function* () {
          const { teamId } = yield* principalTeam
          return chatIntegrationView(yield* chat.integration(teamId))
        }).pipe(
          Effect.catchTags({ ChatAppNotConfigured: notConfigured, ChatIntegrationNotFound: missing }),
          orServiceUnavailable
        )
      )
      .handle("remove", () =>
        Effect.gen(function* () {
          return chatIntegrationView(yield* chat.uninstall(yield* actor))
        }).pipe(
          Effect.catchTags({
            ChatAppNotConfigured: notConfigured,
            ChatAppForbidden: manageForbidden,
            ChatIntegrationNotFound: missing
          }),
          orServiceUnavailable
        )
      )
      .handle("oauthCallback", ({ query }) =>
        Effect.flatMap(cookie.take, (browserSecret) => chat.completeInstall({ ...query, browserSecret })).pipe(
          Effect.map((location) => HttpServerResponse.redirect(location, { status: 302 })),
          Effect.catchTags({
            ChatAppNotConfigured: notConfigured,
            ChatInstallStateInvalid: (e) => Effect.fail(invalidState(STATE_MESSAGES[e.reason])),
            InstallStateRefused: (e) => Effect.fail(invalidState(STATE_MESSAGES[e.reason])),
            ChatAppForbidden: () => Effect.fail(invalidState("its user no longer manages the team")),
            ChatPlatformRefused: (e: ChatPlatformRefused) =>
              Effect.fail(
                badRequest(
                  "chat_exchange_refused",
                  `invalid request: code: the chat platform refused it (${e.error})`,
                  [{ path: "code", message: `refused by the chat platform: ${e.error}` }]
                )
              ),
            ChatPlatformUnavailable: () =>
              Effect.fail(
                new InternalError({
                  error: "internal_error",
                  code: 500,
                  message: "the chat platform did not complete the install; try again"
                })
              )
          }),
          orServiceUnavailable
        )
      )
  })
)

import { DashboardSignIn, dashboardSessionView, Mailer, normalizeEmail } from "@svc/domain"
import { Effect } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../api/Api.ts"
import { badRequest, CurrentDashboardSession, sessionCookie } from "../../api/shared/index.ts"
import { clientAddressOf, PublicBaseUrl } from "../middleware/index.ts"
import { cookieOptions, cookiesAreSecure, orServiceUnavailable } from "../shared/index.ts"

/** The session cookie's attributes: the whole site, living `maxAgeSeconds` (0 clears it). */
const sessionCookieOptions = (secure: boolean, maxAgeSeconds: number) => cookieOptions(secure, "/", maxAgeSeconds)

const invalidSignInLink = () =>
  badRequest("invalid_sign_in_link", "this sign-in link is invalid, expired or already used; ask for a new one")

export const DashboardSignInHttp = HttpApiBuilder.group(Api, "dashboardSignIn", (handlers) =>
  Effect.gen(function* () {
    const signIn = yield* DashboardSignIn
    const { localDelivery } = yield* Mailer
    const secure = cookiesAreSecure(yield* PublicBaseUrl)
    return handlers
      .handle("requestLink", ({ payload }) =>
        Effect.gen(function* () {
          yield* signIn.requestLink(payload.email, clientAddressOf(yield* HttpServerRequest.HttpServerRequest))
          return { object: "sign_in_link_request" as const, email: normalizeEmail(payload.email), localDelivery }
        }).pipe(orServiceUnavailable)
      )
      .handle("signIn", ({ payload }) =>
        Effect.gen(function* () {
          const opened = yield* signIn.signIn(payload.token)
          const maxAgeSeconds = Math.floor(
            (Date.parse(opened.session.expiresAt) - Date.parse(opened.session.createdAt)) / 1000
          )
          yield* HttpApiBuilder.securitySetCookie(
            sessionCookie,
            opened.token,
            sessionCookieOptions(secure, maxAgeSeconds)
          )
          return dashboardSessionView(opened.session, opened.user)
        }).pipe(
          Effect.catchTag("InvalidSignInLink", () => Effect.fail(invalidSignInLink())),
          orServiceUnavailable
        )
      )
  })
)

export const DashboardSessionHttp = HttpApiBuilder.group(Api, "dashboardSession", (handlers) =>
  Effect.gen(function* () {
    const signIn = yield* DashboardSignIn
    const secure = cookiesAreSecure(yield* PublicBaseUrl)
    return handlers
      .handle("current", () =>
        Effect.gen(function* () {
          const active = yield* CurrentDashboardSession
          return dashboardSessionView(active.session, active.user)
        })
      )
      .handle("signOut", () =>
        Effect.gen(function* () {
          yield* signIn.signOut(yield* CurrentDashboardSession)
          yield* HttpApiBuilder.securitySetCookie(sessionCookie, "", sessionCookieOptions(secure, 0))
        }).pipe(orServiceUnavailable)
      )
  })
)

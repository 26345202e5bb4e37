import { INSTALL_STATE_TTL_SECONDS } from "@svc/domain"
import { Effect } from "effect"
import { HttpEffect, HttpServerRequest, HttpServerResponse } from "effect/http"
import { PublicBaseUrl } from "../middleware/index.ts"
import { cookieOptions, cookiesAreSecure } from "../shared/index.ts"

/** The cookie an install flow's browser secret travels in: its name, and the callback it is sent back to only. */
interface InstallCookieName {
  readonly name: string
  readonly path: string
}

/** The chat app's install cookie. */
export const CHAT_INSTALL_COOKIE: InstallCookieName = { name: "svc_chat_install", path: "/apps/chat/oauth-callback" }

/** The mail connection's install cookie. */
export const MAIL_INSTALL_COOKIE: InstallCookieName = { name: "svc_mail_install", path: "/apps/mail/oauth-callback" }

/**
 * An install flow's cookie as this service sets it (ADR 0042): `give` hands the browser that asked for an install URL
 * the install's secret, HttpOnly, SameSite=Lax (so the provider's top-level redirect back carries it), `Secure` unless
 * the service runs on the loopback host, sent to the callback only, for as long as the state holds; `take` reads the
 * secret the callback's browser presents and clears the cookie on the answer, as it serves once.
 */
export const installCookie = (cookie: InstallCookieName) =>
  Effect.map(PublicBaseUrl, (publicBaseUrl) => {
    const secure = cookiesAreSecure(publicBaseUrl)
    const setOnAnswer = (value: string, maxAgeSeconds: number) =>
      HttpEffect.appendPreResponseHandler((_request, response) =>
        Effect.orDie(
          HttpServerResponse.setCookie(response, cookie.name, value, cookieOptions(secure, cookie.path, maxAgeSeconds))
        )
      )
    return {
      give: (browserSecret: string) => setOnAnswer(browserSecret, INSTALL_STATE_TTL_SECONDS),
      take: Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        yield* setOnAnswer("", 0)
        return request.cookies[cookie.name]
      })
    }
  })

import { Effect, Option } from "effect"
import { HttpEffect, HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { PublicBaseUrl } from "./Authentication.ts"

const RETRY_AFTER_UNAVAILABLE_SECONDS = 5

/** The /docs page runs Scalar's bundled script inline; nothing else is loaded and no page may frame it. */
const HTML_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "font-src 'self' data: https://fonts.scalar.com",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'"
].join("; ")

const isHttps = (request: HttpServerRequest.HttpServerRequest) =>
  Option.exists(HttpServerRequest.toURL(request), (url) => url.protocol === "https:")

/**
 * Security headers on every response of every route: `X-Content-Type-Options: nosniff`; `Cache-Control: no-store`
 * unless the route chose its own; `Strict-Transport-Security` when `PUBLIC_BASE_URL` is https or the request came
 * over TLS; a Content-Security-Policy (unless the route set a stricter one of its own) and
 * `X-Frame-Options: DENY` on HTML; `Retry-After` on 503.
 */
export const SecurityHeaders = HttpRouter.middleware()(
  Effect.gen(function* () {
    const httpsEverywhere = (yield* PublicBaseUrl).startsWith("https:")
    return (httpEffect) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const strictTransport = httpsEverywhere || isHttps(request)
        yield* HttpEffect.appendPreResponseHandler((_request, response) => {
          const headers: Record<string, string> = { "x-content-type-options": "nosniff" }
          if (response.headers["cache-control"] === undefined) headers["cache-control"] = "no-store"
          if (strictTransport) headers["strict-transport-security"] = "max-age=31536000; includeSubDomains"
          if (response.headers["content-type"]?.startsWith("text/html") === true) {
            if (response.headers["content-security-policy"] === undefined) {
              headers["content-security-policy"] = HTML_POLICY
            }
            headers["x-frame-options"] = "DENY"
          }
          if (response.status === 503 && response.headers["retry-after"] === undefined) {
            headers["retry-after"] = String(RETRY_AFTER_UNAVAILABLE_SECONDS)
          }
          return Effect.succeed(HttpServerResponse.setHeaders(response, headers))
        })
        return yield* httpEffect
      })
  }),
  { global: true }
)

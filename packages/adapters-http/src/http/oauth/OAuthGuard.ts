import { RateLimiter } from "@svc/domain"
import { Context, Effect, Layer, SchemaIssue } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiError } from "effect/http-api"
import { OAuthGuard } from "../../api/oauth/index.ts"
import { clientAddressOf, unreadableBodyMessage } from "../middleware/index.ts"
import { noStore, oauthErrorResponse, temporarilyUnavailable } from "./OAuthResponses.ts"

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()

const describe = (error: HttpApiError.HttpApiSchemaError): string => {
  if (/valid JSON/u.test(error.cause.message) && error.cause.issue._tag !== "Composite") {
    return unreadableBodyMessage(error)
  }
  return formatter(error.cause.issue)
    .issues.map((issue) => {
      const path = (issue.path ?? []).map((s) => (typeof s === "object" ? String(s.key) : String(s))).join(".")
      return `${path === "" ? "body" : path}: ${issue.message}`
    })
    .join("; ")
}

const stateOf = (request: HttpServerRequest.HttpServerRequest): Record<string, string> => {
  const state = new URL(request.url, "http://localhost").searchParams.get("state")
  return state !== null && state.length > 0 && state.length <= 1024 ? { state } : {}
}

/** How many OAuth requests a minute one client address may make (the API's `RATE_LIMIT_OAUTH_PER_MINUTE`). */
export class OAuthRateLimit extends Context.Service<OAuthRateLimit, { readonly perMinute: number }>()(
  "@svc/adapters-http/OAuthRateLimit"
) {}

/**
 * The OAuthGuard middleware: a token bucket per client IP (`OAuthRateLimit`) on the shared
 * RateLimiter port, RFC 6749 bodies for requests that fail validation (`invalid_client_metadata` at registration),
 * and `Cache-Control: no-store` on every answer.
 */
export const OAuthGuardLive = Layer.effect(
  OAuthGuard,
  Effect.gen(function* () {
    const limiter = yield* RateLimiter
    const limit = (yield* OAuthRateLimit).perMinute
    return (httpEffect, { endpoint }) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const decision = yield* Effect.result(limiter.take(`oauth:ip:${clientAddressOf(request)}`, limit))
        if (decision._tag === "Failure") return temporarilyUnavailable()
        if (!decision.success.allowed) {
          return oauthErrorResponse(
            429,
            {
              error: "rate_limited",
              error_description: `more than ${limit} OAuth requests a minute from this address`
            },
            {
              "retry-after": String(decision.success.retryAfterSeconds),
              "ratelimit-limit": String(decision.success.limit),
              "ratelimit-remaining": "0",
              "ratelimit-reset": String(decision.success.resetSeconds)
            }
          )
        }
        const response = yield* Effect.catch(httpEffect, (error) =>
          HttpApiError.HttpApiSchemaError.is(error)
            ? Effect.succeed(
                oauthErrorResponse(400, {
                  error: endpoint.identifier === "register" ? "invalid_client_metadata" : "invalid_request",
                  error_description: describe(error),
                  ...(request.method === "GET" ? stateOf(request) : {})
                })
              )
            : Effect.fail(error)
        )
        return noStore(response)
      })
  })
)

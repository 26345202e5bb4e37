import { hashSecret, type RateLimitDecision, RateLimiter } from "@svc/domain"
import { Effect } from "effect"
import { HttpEffect, HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { errorResponse, storeUnavailableResponse } from "./ErrorResponses.ts"

const PREFIX = "/v1/"

/** The three RateLimit headers every /v1 response carries. */
export const rateLimitHeaders = (decision: RateLimitDecision): Record<string, string> => ({
  "ratelimit-limit": String(decision.limit),
  "ratelimit-remaining": String(decision.remaining),
  "ratelimit-reset": String(decision.resetSeconds)
})

/** The bucket of a request: the SHA-256 of its bearer token (or of the whole header), so no lookup is needed. */
const bucketKey = (authorization: string | undefined) =>
  authorization === undefined
    ? Effect.succeed("v1:anonymous")
    : hashSecret(authorization.replace(/^Bearer\s+/iu, "")).pipe(Effect.map((hash) => `v1:${hash}`))

/**
 * The /v1 rate limit: a token bucket per credential (`limitPerMinute` requests a minute). Every /v1 response, errors
 * included, carries RateLimit-Limit/Remaining/Reset (added just before sending); over the limit the answer is 429
 * `rate_limited` with Retry-After. If the limiter's store is down the request gets 503.
 */
export const RateLimitV1 = (limitPerMinute: number) =>
  HttpRouter.middleware()(
    Effect.gen(function* () {
      const limiter = yield* RateLimiter
      return (httpEffect) =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          if (!request.url.startsWith(PREFIX)) return yield* httpEffect
          const decision = yield* limiter
            .take(yield* bucketKey(request.headers.authorization), limitPerMinute)
            .pipe(Effect.catchTag("PersistenceUnavailable", () => Effect.succeed(undefined)))
          if (decision === undefined) {
            return storeUnavailableResponse()
          }
          const headers = rateLimitHeaders(decision)
          if (!decision.allowed) {
            return errorResponse(
              429,
              "rate_limited",
              `rate limit of ${decision.limit} requests per minute exceeded; retry after ${decision.retryAfterSeconds} s`,
              { headers: { ...headers, "retry-after": String(decision.retryAfterSeconds) } }
            )
          }
          yield* HttpEffect.appendPreResponseHandler((_request, response) =>
            Effect.succeed(HttpServerResponse.setHeaders(response, headers))
          )
          return yield* httpEffect
        })
    }),
    { global: true }
  )

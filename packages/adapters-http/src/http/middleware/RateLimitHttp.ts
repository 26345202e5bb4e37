import { hashSecret, type RateLimitDecision, RateLimiter } from "@svc/domain"
import { Context, Effect, Option } from "effect"
import { HttpEffect, HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { clientAddressOf } from "./ClientAddress.ts"
import { errorResponse, storeUnavailableResponse } from "./ErrorResponses.ts"
import { ResolvedAgents } from "./ResolvedAgent.ts"

const PREFIX = "/v1/"

/** In-process token buckets for /v1 requests whose credential is no key: one per client address, never stored. */
export class UnknownCredentialLimiter extends Context.Service<UnknownCredentialLimiter, RateLimiter["Service"]>()(
  "@svc/adapters-http/UnknownCredentialLimiter"
) {}

/** The three RateLimit headers every /v1 response carries. */
export const rateLimitHeaders = (decision: RateLimitDecision): Record<string, string> => ({
  "ratelimit-limit": String(decision.limit),
  "ratelimit-remaining": String(decision.remaining),
  "ratelimit-reset": String(decision.resetSeconds)
})

/** 429 `rate_limited` with the RateLimit headers and Retry-After. */
const rateLimitedResponse = (decision: RateLimitDecision) =>
  errorResponse(
    429,
    "rate_limited",
    `rate limit of ${decision.limit} requests per minute exceeded; retry after ${decision.retryAfterSeconds} s`,
    { headers: { ...rateLimitHeaders(decision), "retry-after": String(decision.retryAfterSeconds) } }
  )

/** The public sign-in calls: asking for a link and consuming one. */
const SIGN_IN_PATHS: ReadonlySet<string> = new Set(["/auth/sign-in-links", "/auth/sessions"])

/**
 * The sign-in rate limit: a token bucket of `limitPerMinute` a minute per client address, in memory (the buckets of
 * unknown /v1 credentials, under their own keys), over both public sign-in calls together; over it, 429 `rate_limited`
 * with Retry-After. It bounds how fast one address can have links mailed or guess at link tokens, on top of the
 * per-e-mail limit of the sign-in itself.
 */
export const RateLimitSignIn = (limitPerMinute: number) =>
  HttpRouter.middleware()(
    Effect.gen(function* () {
      const buckets = yield* UnknownCredentialLimiter
      return (httpEffect) =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const path = request.url.split("?")[0] ?? ""
          if (request.method !== "POST" || !SIGN_IN_PATHS.has(path)) return yield* httpEffect
          const decision = yield* buckets
            .take(`sign-in:address:${clientAddressOf(request)}`, limitPerMinute)
            .pipe(Effect.catchTag("PersistenceUnavailable", () => Effect.succeed(undefined)))
          if (decision === undefined) return storeUnavailableResponse()
          return decision.allowed ? yield* httpEffect : rateLimitedResponse(decision)
        })
    }),
    { global: true }
  )

/**
 * The /v1 rate limit: a token bucket of `limitPerMinute` requests a minute per agent key (in the RateLimiter store,
 * keyed by the SHA-256 of the token) and one per client address, in memory, shared by every request whose credential
 * is missing or resolves to no key, so unknown tokens never write. Every /v1 response, errors included, carries
 * RateLimit-Limit/Remaining/Reset (added just before sending); over the limit the answer is 429 `rate_limited` with
 * Retry-After. If the store is down the request gets 503.
 */
export const RateLimitV1 = (limitPerMinute: number) =>
  HttpRouter.middleware()(
    Effect.gen(function* () {
      const store = yield* RateLimiter
      const unknown = yield* UnknownCredentialLimiter
      const resolved = yield* ResolvedAgents
      /** The bucket's decision; the token's agent is left for authentication, which then need not look it up again. */
      const take = (request: HttpServerRequest.HttpServerRequest) =>
        Effect.gen(function* () {
          const token = request.headers.authorization?.replace(/^Bearer\s+/iu, "")
          if (token === undefined) return yield* takeByAddress(request)
          const agent = yield* resolved.agentOf(request, token)
          yield* resolved.remember(request, token, agent)
          return Option.isSome(agent)
            ? yield* store.take(`v1:${yield* hashSecret(token)}`, limitPerMinute)
            : yield* takeByAddress(request)
        })
      const takeByAddress = (request: HttpServerRequest.HttpServerRequest) =>
        unknown.take(`v1:address:${clientAddressOf(request)}`, limitPerMinute)
      return (httpEffect) =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          if (!request.url.startsWith(PREFIX)) return yield* httpEffect
          const decision = yield* take(request).pipe(
            Effect.catchTag("PersistenceUnavailable", () => Effect.succeed(undefined))
          )
          if (decision === undefined) {
            return storeUnavailableResponse()
          }
          const headers = rateLimitHeaders(decision)
          if (!decision.allowed) return rateLimitedResponse(decision)
          yield* HttpEffect.appendPreResponseHandler((_request, response) =>
            Effect.succeed(HttpServerResponse.setHeaders(response, headers))
          )
          return yield* httpEffect
        })
    }),
    { global: true }
  )

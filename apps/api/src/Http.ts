import {
  ClientAddress,
  InProcessToolCall,
  OAuthRateLimit,
  RateLimitSignIn,
  RateLimitV1,
  ResolvedAgents,
  UnknownCredentialLimiter
} from "@svc/adapters-http"
import { CallerCredentials } from "@svc/adapters-mcp"
import { RateLimiterMemory } from "@svc/adapters-memory"
import { RateLimiter, RateLimitPruneJob } from "@svc/domain"
import { Effect, Layer, Option } from "effect"
import { oauthRateLimitPerMinute, trustedProxies, v1ProtectionConfig } from "./Config.ts"
import { rateLimitPruneInterval } from "./Workers.ts"

/**
 * The /v1 rate limits: `RATE_LIMIT_V1_PER_MINUTE` (default 600) per key and per client address for unknown
 * credentials, whose in-process buckets are forgotten when idle, and the sign-in calls' limit per client address
 * (`RATE_LIMIT_SIGN_IN_PER_MINUTE`, default 30).
 */
export const RateLimits = Layer.unwrap(
  Effect.gen(function* () {
    const { limitPerMinute, signInLimitPerMinute } = yield* v1ProtectionConfig
    const unknownCredentialBuckets = Layer.merge(
      Layer.effect(UnknownCredentialLimiter, RateLimiter.use(Effect.succeed)),
      RateLimitPruneJob(yield* rateLimitPruneInterval)
    ).pipe(Layer.provide(RateLimiterMemory))
    return Layer.merge(
      RateLimitV1(Math.max(1, Math.floor(limitPerMinute))),
      RateLimitSignIn(Math.max(1, Math.floor(signInLimitPerMinute)))
    ).pipe(Layer.provide(unknownCredentialBuckets))
  })
)

/** The /oauth limit per client address: `RATE_LIMIT_OAUTH_PER_MINUTE` (default 60). */
export const OAuthRateLimits = Layer.effect(
  OAuthRateLimit,
  Effect.map(oauthRateLimitPerMinute, (perMinute) => ({ perMinute }))
)

/**
 * /mcp admits the agent keys /v1 accepts and OAuth access tokens whose application may act for its team (the tools'
 * in-process calls take them; /v1 from the network does not).
 */
export const McpCallers = Layer.effect(
  CallerCredentials,
  Effect.gen(function* () {
    const resolved = yield* ResolvedAgents
    return CallerCredentials.of({
      known: (token) =>
        Effect.map(resolved.lookUp(token), Option.isSome).pipe(Effect.provideService(InProcessToolCall, true))
    })
  })
)

/** The client address of every request, behind the proxies `TRUST_PROXY` names (none unless given). */
export const clientAddress = Layer.unwrap(Effect.map(trustedProxies, ClientAddress))

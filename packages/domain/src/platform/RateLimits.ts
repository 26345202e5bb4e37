import { Context, type Duration, type Effect } from "effect"
import { type PersistenceUnavailable, periodicJob } from "../shared/index.ts"

/** The outcome of taking one token from a bucket, with what the RateLimit headers report. */
export interface RateLimitDecision {
  readonly allowed: boolean
  /** The bucket's capacity: requests per minute. */
  readonly limit: number
  /** Whole tokens left after this request. */
  readonly remaining: number
  /** Seconds until the bucket is full again. */
  readonly resetSeconds: number
  /** Seconds until the next token, when refused (0 when allowed). */
  readonly retryAfterSeconds: number
}

/** A token bucket after a refill: `tokens` may be fractional; capacity is the limit per minute. */
export interface BucketState {
  readonly tokens: number
  readonly updatedAtMillis: number
}

/** Tokens added per millisecond to a bucket of `limit` requests per minute. */
const ratePerMilli = (limit: number) => limit / 60_000

/** Tokens in a bucket left with `tokens`, `elapsedMillis` later (below the cap): `takeToken`'s own arithmetic. */
const refilledAfter = (tokens: number, elapsedMillis: number, limit: number) =>
  tokens + (elapsedMillis * limit) / 60_000

/** Refills a bucket (absent = full) up to `now` and takes one token if a whole one is there. */
export const takeToken = (
  state: BucketState | undefined,
  nowMillis: number,
  limit: number
): { readonly state: BucketState; readonly allowed: boolean } => {
  const refilled =
    state === undefined
      ? limit
      : Math.min(limit, refilledAfter(state.tokens, Math.max(0, nowMillis - state.updatedAtMillis), limit))
  const allowed = refilled >= 1
  return { state: { tokens: allowed ? refilled - 1 : refilled, updatedAtMillis: nowMillis }, allowed }
}

/**
 * The first whole second at which a bucket left with `tokens` holds a whole token again, by the same floating-point
 * arithmetic `takeToken` refills with, so the answer is never a second early or late through rounding.
 */
const secondsUntilToken = (tokens: number, limit: number): number => {
  let seconds = Math.max(1, Math.ceil((1 - tokens) / ratePerMilli(limit) / 1000))
  while (seconds > 1 && refilledAfter(tokens, (seconds - 1) * 1000, limit) >= 1) seconds--
  while (refilledAfter(tokens, seconds * 1000, limit) < 1) seconds++
  return seconds
}

/** What the headers say about a bucket left with `tokens` after a request that was `allowed` or not. */
export const decisionOf = (limit: number, tokens: number, allowed: boolean): RateLimitDecision => ({
  allowed,
  limit,
  remaining: Math.max(0, Math.floor(tokens)),
  resetSeconds: Math.max(0, Math.ceil((limit - tokens) / ratePerMilli(limit) / 1000)),
  retryAfterSeconds: allowed ? 0 : secondsUntilToken(tokens, limit)
})

/** A bucket idle this long is full again, so forgetting it changes nothing. */
export const IDLE_BUCKET_MILLIS = 60_000

/** Per-key token buckets (capacity = limit per minute, refilled at limit/60 per second). */
export class RateLimiter extends Context.Service<
  RateLimiter,
  {
    /** Takes one token from the key's bucket. */
    readonly take: (key: string, limitPerMinute: number) => Effect.Effect<RateLimitDecision, PersistenceUnavailable>
    /** Forgets buckets idle for a minute or more (they are full); returns how many. */
    readonly prune: Effect.Effect<number, PersistenceUnavailable>
  }
>()("@svc/domain/RateLimiter") {}

/** A background job that prunes idle rate-limit buckets every `interval` for as long as the layer lives. */
export const RateLimitPruneJob = (interval: Duration.Input) =>
  periodicJob(
    "rate limit pruning",
    RateLimiter.use((limiter) => limiter.prune),
    interval
  )

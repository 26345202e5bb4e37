import { Cause, Data, Duration, Effect, Schedule } from "effect"

/** The numbers of the published retry policy; every field defaults to SPEC.md's value. */
export interface RetryOptions {
  readonly initialDelayMs?: number
  readonly factor?: number
  readonly maxDelayMs?: number
  readonly maxElapsedMs?: number
}

/** SPEC.md's client retry policy: backoff from 500 ms, factor 1.5, at most 60 s per wait and 300 s in total. */
export const DefaultRetryOptions: Required<RetryOptions> = {
  initialDelayMs: 500,
  factor: 1.5,
  maxDelayMs: 60_000,
  maxElapsedMs: 300_000
}

/** An attempt that may be retried: a retryable response (`isRetryableStatus`), or a connection failure (`status` null). */
export class RetryableFailure extends Data.TaggedError("RetryableFailure")<{
  readonly status: number | null
  readonly retryAfterMs: number | null
  readonly cause: unknown
}> {}

/**
 * Whether a response is worth retrying: 5xx, 429, and a 409 that carries `Retry-After` (`idempotency_key_in_use`: the
 * key's first request still runs, on this node or another, and a later try replays its answer); never another 4xx.
 */
export const isRetryableStatus = (status: number, retryAfter?: string): boolean =>
  status === 429 || (status >= 500 && status <= 599) || (status === 409 && retryAfter !== undefined)

/** `Retry-After` as milliseconds when it is a number of seconds; null otherwise. */
export const parseRetryAfter = (header: string | undefined): number | null => {
  if (header === undefined || !/^\s*\d{1,9}\s*$/u.test(header)) return null
  return Number(header.trim()) * 1000
}

/** The exponential backoff wait before retry number `retry` (1-based), capped per wait. */
export const backoffDelay = (options: RetryOptions, retry: number): number => {
  const o = { ...DefaultRetryOptions, ...options }
  return Math.min(Math.round(o.initialDelayMs * o.factor ** (retry - 1)), o.maxDelayMs)
}

/**
 * The wait before retry number `retry` after `elapsedMs` of retrying, or null to give up: the Retry-After of a 429 or
 * 409 wins over the backoff, and no wait may carry the total past `maxElapsedMs`.
 */
export const nextDelay = (
  options: RetryOptions,
  retry: number,
  elapsedMs: number,
  retryAfterMs: number | null
): number | null => {
  const maxElapsedMs = options.maxElapsedMs ?? DefaultRetryOptions.maxElapsedMs
  const delay = retryAfterMs ?? backoffDelay(options, retry)
  return elapsedMs + delay > maxElapsedMs ? null : delay
}

/** The retry schedule over RetryableFailure inputs; pair it with `while: (e) => e instanceof RetryableFailure`. */
export const retrySchedule = (options: RetryOptions = {}): Schedule.Schedule<Duration.Duration, RetryableFailure> =>
  Schedule.fromStepWithMetadata(
    Effect.succeed((meta: Schedule.InputMetadata<RetryableFailure>) => {
      const delay = nextDelay(options, meta.attempt, meta.elapsed, meta.input.retryAfterMs)
      return delay === null
        ? Cause.done(Duration.zero)
        : Effect.succeed([Duration.millis(delay), Duration.millis(delay)] as [Duration.Duration, Duration.Duration])
    })
  )

/** Retries an effect on RetryableFailure under the policy; any other failure ends it at once. */
export const withRetry =
  (options: RetryOptions = {}) =>
  <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.retry(self, {
      schedule: retrySchedule(options) as Schedule.Schedule<Duration.Duration, E>,
      while: (e) => e instanceof RetryableFailure
    })

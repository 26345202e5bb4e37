import { assert, describe, it } from "@effect/vitest"
import { Clock, Effect, Fiber } from "effect"
import { TestClock } from "effect/testing"
import {
  backoffDelay,
  DefaultRetryOptions,
  isRetryableStatus,
  nextDelay,
  parseRetryAfter,
  RetryableFailure,
  type RetryOptions,
  withRetry
} from "../src/RetryPolicy.ts"

/** The waits a run that always fails with `failure` would see, computed from the policy alone. */
const plannedDelays = (options: RetryOptions, retryAfterMs: number | null = null) => {
  const delays: Array<number> = []
  let elapsed = 0
  for (let retry = 1; ; retry++) {
    const delay = nextDelay(options, retry, elapsed, retryAfterMs)
    if (delay === null) return delays
    delays.push(delay)
    elapsed += delay
  }
}

const unavailable = new RetryableFailure({ status: 503, retryAfterMs: null, cause: null })

/** Runs an always-failing effect under the policy on the TestClock; returns the clock time of every attempt. */
const attemptTimes = (options: RetryOptions, failure: unknown) =>
  Effect.gen(function* () {
    const times: Array<number> = []
    const attempt = Effect.gen(function* () {
      times.push(yield* Clock.currentTimeMillis)
      return yield* Effect.fail(failure)
    })
    const fiber = yield* Effect.forkChild(Effect.flip(attempt.pipe(withRetry(options))))
    for (let i = 0; i < 1000 && fiber.pollUnsafe() === undefined; i++) yield* TestClock.adjust("1 second")
    const error = yield* Fiber.join(fiber)
    return { times, error }
  })

describe("retry policy", () => {
  it("backs off from 500 ms by a factor of 1.5, capped at 60 s per wait", () => {
    assert.deepStrictEqual(
      [1, 2, 3, 4, 5].map((n) => backoffDelay({}, n)),
      [500, 750, 1125, 1688, 2531]
    )
    assert.strictEqual(backoffDelay({}, 12), Math.round(500 * 1.5 ** 11))
    assert.strictEqual(backoffDelay({}, 13), 60_000)
    assert.strictEqual(backoffDelay({}, 40), 60_000)
  })

  it("never waits past 300 s in total with the published numbers", () => {
    const delays = plannedDelays({})
    const total = delays.reduce((a, b) => a + b, 0)
    assert.isAtMost(total, DefaultRetryOptions.maxElapsedMs)
    assert.isAbove(total + 60_000, DefaultRetryOptions.maxElapsedMs, "gives up only when the next wait would overrun")
    assert.strictEqual(delays[0], 500)
    assert.isTrue(delays.every((d) => d <= 60_000))
    assert.strictEqual(delays.length, 14)
  })

  it("takes every number as a parameter", () => {
    assert.deepStrictEqual(
      plannedDelays({ initialDelayMs: 10, factor: 2, maxDelayMs: 35, maxElapsedMs: 100 }),
      [10, 20, 35, 35]
    )
  })

  it("lets Retry-After replace the backoff, still inside the total budget", () => {
    assert.strictEqual(nextDelay({}, 1, 0, 7_000), 7_000)
    assert.strictEqual(nextDelay({}, 1, 0, 120_000), 120_000)
    assert.strictEqual(nextDelay({}, 1, 200_000, 120_000), null)
    assert.deepStrictEqual(plannedDelays({ maxElapsedMs: 3_500 }, 1_000), [1_000, 1_000, 1_000])
  })

  it("retries 5xx, 429 and a 409 with Retry-After, never another 4xx or a success", () => {
    for (const status of [429, 500, 502, 503, 504, 599]) assert.isTrue(isRetryableStatus(status), String(status))
    for (const status of [200, 201, 301, 400, 401, 403, 404, 409, 413, 415, 422, 499, 600]) {
      assert.isFalse(isRetryableStatus(status), String(status))
    }
    // 409 idempotency_key_in_use is the only 409 that says when to come back: its first request still runs.
    assert.isTrue(isRetryableStatus(409, "1"))
    for (const status of [400, 404, 422]) assert.isFalse(isRetryableStatus(status, "1"), String(status))
  })

  it("reads Retry-After as whole seconds and ignores anything else", () => {
    assert.strictEqual(parseRetryAfter("1"), 1_000)
    assert.strictEqual(parseRetryAfter(" 30 "), 30_000)
    assert.strictEqual(parseRetryAfter("0"), 0)
    for (const bad of [undefined, "", "-1", "1.5", "soon", "Wed, 21 Oct 2015 07:28:00 GMT", "1e3"]) {
      assert.isNull(parseRetryAfter(bad), String(bad))
    }
  })
})

describe("retry schedule on the TestClock", () => {
  it.effect("attempts at the computed times and gives up within 300 s", () =>
    Effect.gen(function* () {
      const { times, error } = yield* attemptTimes({}, unavailable)
      const expected = [0]
      for (const delay of plannedDelays({})) expected.push(expected.at(-1)! + delay)
      assert.deepStrictEqual(times, expected)
      assert.isAtMost(times.at(-1)!, 300_000)
      assert.strictEqual(error, unavailable)
    })
  )

  it.effect("waits Retry-After instead of the backoff", () =>
    Effect.gen(function* () {
      const limited = new RetryableFailure({ status: 429, retryAfterMs: 2_000, cause: null })
      const { times } = yield* attemptTimes({ maxElapsedMs: 5_000 }, limited)
      assert.deepStrictEqual(times, [0, 2_000, 4_000])
    })
  )

  it.effect("does not retry a failure that is not retryable", () =>
    Effect.gen(function* () {
      const { times, error } = yield* attemptTimes({}, { _tag: "NotFound", code: 404 })
      assert.deepStrictEqual(times, [0])
      assert.deepStrictEqual(error, { _tag: "NotFound", code: 404 })
    })
  )

  it.effect("stops retrying once an attempt succeeds", () =>
    Effect.gen(function* () {
      let calls = 0
      const flaky = Effect.suspend(() => (++calls < 3 ? Effect.fail(unavailable) : Effect.succeed("ok")))
      const fiber = yield* Effect.forkChild(flaky.pipe(withRetry({ initialDelayMs: 100 })))
      yield* TestClock.adjust("1 second")
      assert.strictEqual(yield* Fiber.join(fiber), "ok")
      assert.strictEqual(calls, 3)
    })
  )
})

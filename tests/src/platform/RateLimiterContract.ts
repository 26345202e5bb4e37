import { assert, layer } from "@effect/vitest"
import { RateLimiter } from "@svc/domain"
import { Effect, type Layer } from "effect"
import { TestClock } from "effect/testing"

const key = () => `test:${crypto.randomUUID()}`

/** The RateLimiter port's contract; time moves with TestClock, the clock every adapter reads. */
export const rateLimiterContract = <E>(name: string, ports: Layer.Layer<RateLimiter, E>) =>
  layer(ports, { timeout: "60 seconds" })(`RateLimiter contract (${name})`, (it) => {
    it.effect("a fresh bucket allows `limit` requests, counting down, then refuses with Retry-After", () =>
      Effect.gen(function* () {
        const limiter = yield* RateLimiter
        const k = key()
        const remaining: Array<number> = []
        for (let i = 0; i < 5; i++) {
          const d = yield* limiter.take(k, 5)
          assert.isTrue(d.allowed)
          assert.strictEqual(d.limit, 5)
          assert.strictEqual(d.retryAfterSeconds, 0)
          remaining.push(d.remaining)
        }
        assert.deepStrictEqual(remaining, [4, 3, 2, 1, 0])
        const refused = yield* limiter.take(k, 5)
        assert.isFalse(refused.allowed)
        assert.strictEqual(refused.remaining, 0)
        assert.isAtLeast(refused.retryAfterSeconds, 1)
        assert.isAtMost(refused.retryAfterSeconds, 12)
        assert.isAtLeast(refused.resetSeconds, 48)
        assert.isAtMost(refused.resetSeconds, 60)
      })
    )

    it.effect("buckets are per key", () =>
      Effect.gen(function* () {
        const limiter = yield* RateLimiter
        const a = key()
        yield* limiter.take(a, 1)
        assert.isFalse((yield* limiter.take(a, 1)).allowed)
        assert.isTrue((yield* limiter.take(key(), 1)).allowed)
      })
    )

    it.effect("concurrent requests never take more than the bucket holds", () =>
      Effect.gen(function* () {
        const limiter = yield* RateLimiter
        const k = key()
        const decisions = yield* Effect.all(
          Array.from({ length: 30 }, () => limiter.take(k, 10)),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(decisions.filter((d) => d.allowed).length, 10)
      })
    )

    it.effect("tokens come back at limit/60 per second", () =>
      Effect.gen(function* () {
        const limiter = yield* RateLimiter
        const k = key()
        yield* limiter.take(k, 60)
        for (let i = 0; i < 59; i++) yield* limiter.take(k, 60)
        assert.isFalse((yield* limiter.take(k, 60)).allowed)
        yield* TestClock.adjust(1_100)
        assert.isTrue((yield* limiter.take(k, 60)).allowed)
        assert.isFalse((yield* limiter.take(k, 60)).allowed)
      })
    )

    it.effect("pruning forgets no bucket that is still in use", () =>
      Effect.gen(function* () {
        const limiter = yield* RateLimiter
        const k = key()
        yield* limiter.take(k, 3)
        yield* limiter.prune
        assert.strictEqual((yield* limiter.take(k, 3)).remaining, 1)
      })
    )
  })

import { assert, it } from "@effect/vitest"
import { RateLimiterMemory } from "@svc/adapters-memory"
import { RateLimiter } from "@svc/domain"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { rateLimiterContract } from "./RateLimiterContract.ts"

rateLimiterContract("in-memory", RateLimiterMemory)

it.effect("an idle bucket is pruned after a minute, when it would be full again (TestClock)", () =>
  Effect.gen(function* () {
    const limiter = yield* RateLimiter
    yield* limiter.take("a", 2)
    yield* limiter.take("a", 2)
    yield* TestClock.adjust("59 seconds")
    assert.strictEqual(yield* limiter.prune, 0)
    yield* TestClock.adjust("1 second")
    assert.strictEqual(yield* limiter.prune, 1)
    assert.strictEqual((yield* limiter.take("a", 2)).remaining, 1)
  }).pipe(Effect.provide(RateLimiterMemory))
)

import { assert, layer } from "@effect/vitest"
import { RateLimiterPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { RateLimiter } from "@svc/domain"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { rateLimiterContract } from "./RateLimiterContract.ts"

const database = RateLimiterPg.pipe(Layer.provideMerge(TestDatabase))
const label = process.env.DATABASE_URL === undefined ? "embedded PGlite" : "real Postgres"

rateLimiterContract(label, database)

layer(database)(`RateLimiterPg (${label})`, (it) => {
  it.effect("prunes buckets idle for a minute, and only those", () =>
    Effect.gen(function* () {
      const limiter = yield* RateLimiter
      const sql = yield* SqlClient.SqlClient
      yield* limiter.take("idle", 5)
      yield* TestClock.adjust("61 seconds")
      yield* limiter.take("busy", 5)
      assert.strictEqual(yield* limiter.prune, 1)
      const rows = yield* sql<{
        key: string
      }>`SELECT key FROM rate_limit_buckets WHERE key IN ('idle', 'busy') ORDER BY key`
      assert.deepStrictEqual(
        rows.map((r) => r.key),
        ["busy"]
      )
    })
  )

  it.effect("a take timed before the bucket's last one refills nothing and leaves its time where it was", () =>
    Effect.gen(function* () {
      const limiter = yield* RateLimiter
      yield* TestClock.setTime(600_000)
      yield* limiter.take("skewed", 60)
      yield* limiter.take("skewed", 60)
      yield* TestClock.setTime(590_000)
      assert.strictEqual((yield* limiter.take("skewed", 60)).remaining, 57)
      yield* TestClock.setTime(600_000)
      assert.strictEqual((yield* limiter.take("skewed", 60)).remaining, 56)
    })
  )
})

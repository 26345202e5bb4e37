import { assert, layer } from "@effect/vitest"
import { RateLimiterPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { RateLimiter } from "@svc/domain"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { rateLimiterContract } from "./RateLimiterContract.ts"

const database = RateLimiterPg.pipe(Layer.provideMerge(TestDatabase))
const label = process.env.DATABASE_URL === undefined ? "embedded PGlite" : "real Postgres"

rateLimiterContract(label, database, (millis) =>
  Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, millis)))
)

layer(database)(`RateLimiterPg (${label})`, (it) => {
  it.effect("prunes buckets idle for a minute by the database clock, and only those", () =>
    Effect.gen(function* () {
      const limiter = yield* RateLimiter
      const sql = yield* SqlClient.SqlClient
      yield* limiter.take("idle", 5)
      yield* limiter.take("busy", 5)
      yield* sql`UPDATE rate_limit_buckets SET updated_at = clock_timestamp() - interval '61 seconds' WHERE key = 'idle'`
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
})

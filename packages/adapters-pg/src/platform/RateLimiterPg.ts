import { decisionOf, IDLE_BUCKET_MILLIS, nowIso, RateLimiter } from "@svc/domain"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeRows, deletedCount, orUnavailable } from "../shared/index.ts"

const BucketRow = Schema.Struct({ tokens: Schema.Finite, allowed: Schema.Boolean })

/**
 * RateLimiter on Postgres, shared by every process on the database: one row per key, refilled and taken in a single
 * atomic upsert timed by the `Clock`, as the memory adapter is. A bucket's time never moves back, so a process whose
 * clock lags another's refills nothing until it catches up.
 */
export const RateLimiterPg = Layer.effect(
  RateLimiter,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return RateLimiter.of({
      take: (key, limit) =>
        Effect.flatMap(
          nowIso,
          (at) => sql`
            INSERT INTO rate_limit_buckets AS b (key, tokens, allowed, updated_at)
            VALUES (${key}, ${limit}::float8 - 1, true, ${at}::timestamptz)
            ON CONFLICT (key) DO UPDATE SET (tokens, allowed, updated_at) = (
              SELECT CASE WHEN r.refilled >= 1 THEN r.refilled - 1 ELSE r.refilled END, r.refilled >= 1,
                     greatest(b.updated_at, ${at}::timestamptz)
              FROM (
                SELECT least(${limit}::float8,
                         b.tokens + greatest(0, extract(epoch FROM ${at}::timestamptz - b.updated_at)::float8)
                           * ${limit}::float8 / 60
                       ) AS refilled
              ) r
            )
            RETURNING tokens, allowed`
        ).pipe(
          orUnavailable("rateLimiter.take"),
          Effect.flatMap(decodeRows(BucketRow, "rateLimiter.take")),
          Effect.map(([row]) => decisionOf(limit, row?.tokens ?? 0, row?.allowed === true))
        ),
      prune: Effect.flatMap(nowIso, (at) =>
        deletedCount(
          sql,
          sql`DELETE FROM rate_limit_buckets
              WHERE updated_at < ${at}::timestamptz - make_interval(secs => ${IDLE_BUCKET_MILLIS / 1000})`
        )
      ).pipe(orUnavailable("rateLimiter.prune"))
    })
  })
)

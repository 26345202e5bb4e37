import { ReadYourWrites } from "@svc/domain"
import { Context, Effect, Metric, Option } from "effect"
import { SqlClient, SqlError } from "effect/sql"

/**
 * The replica that lists and reports may read from (`DATABASE_READ_URL`, ADR 0052); none by default, and then every
 * read runs on the primary.
 */
export const ReadReplica = Context.Reference<SqlClient.SqlClient | undefined>("@svc/adapters-pg/ReadReplica", {
  defaultValue: () => undefined
})

const replicaReadsTotal = Metric.counter("db_replica_reads_total", {
  description:
    "Reads sent to the read replica, by outcome: served there, or failed there and read from the primary instead"
})
const served = Metric.withAttributes(replicaReadsTotal, { outcome: "served" })
const fellBack = Metric.withAttributes(replicaReadsTotal, { outcome: "primary_fallback" })

/**
 * Where a repository's pure read runs (a list or a report, never a read a write decides on): the replica when one is
 * configured, except inside a transaction (its reads must see its own writes, on its own connection) and for a caller
 * that wrote recently (`ReadYourWrites`), which read the primary. A read the replica fails (unreachable, a conflict
 * with recovery) is logged, counted and run on the primary instead, so a replica outage costs load, not answers.
 * Built once per repository; `read` gets the client to run its statements on.
 */
export const replicaReads = Effect.gen(function* () {
  const primary = yield* SqlClient.SqlClient
  const replica = yield* ReadReplica
  return <A, E, R>(
    operation: string,
    read: (sql: SqlClient.SqlClient) => Effect.Effect<A, E, R>
  ): Effect.Effect<A, E, R> =>
    replica === undefined
      ? read(primary)
      : Effect.gen(function* () {
          const inTransaction = Option.isSome(yield* Effect.serviceOption(primary.transactionService))
          if (inTransaction || (yield* ReadYourWrites)) return yield* read(primary)
          return yield* read(replica).pipe(
            Effect.tap(() => Metric.update(served, 1)),
            Effect.catchIf(SqlError.isSqlError, (error) =>
              Effect.logWarning(`database read ${operation} failed on the replica; reading the primary`, error).pipe(
                Effect.andThen(Metric.update(fellBack, 1)),
                Effect.andThen(read(primary))
              )
            )
          )
        })
})

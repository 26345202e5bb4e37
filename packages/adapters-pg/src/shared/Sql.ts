import { PersistenceUnavailable, Transactor } from "@svc/domain"
import { Cause, Effect, Layer, Option } from "effect"
import { SqlClient, SqlError, type Statement } from "effect/sql"

/** Turns any SQL failure into the domain's PersistenceUnavailable; the SQL text and cause stay in the logs. */
export const orUnavailable =
  (operation: string) =>
  <A, E, R>(
    self: Effect.Effect<A, E, R>
  ): Effect.Effect<A, Exclude<E, SqlError.SqlError> | PersistenceUnavailable, R> =>
    Effect.catchIf(self, SqlError.isSqlError, (error) =>
      Effect.logError(`database operation ${operation} failed`, error).pipe(
        Effect.andThen(Effect.fail(new PersistenceUnavailable({ operation })))
      )
    ) as Effect.Effect<A, Exclude<E, SqlError.SqlError> | PersistenceUnavailable, R>

/** Runs a `SELECT count(*) AS count ...` statement and answers the count (Postgres sends a bigint as text). */
export const selectCount = (sql: SqlClient.SqlClient, select: Statement.Fragment) =>
  sql<{ count: number | string }>`${select}`.pipe(Effect.map((rows) => Number(rows[0]?.count ?? 0)))

/** Runs a `DELETE ...` statement (without RETURNING) and answers how many rows it deleted. */
export const deletedCount = (sql: SqlClient.SqlClient, remove: Statement.Fragment) =>
  selectCount(sql, sql`WITH gone AS (${remove} RETURNING 1) SELECT count(*) AS count FROM gone`)

/**
 * A ROLLBACK on a connection the database dropped dies beside the unit's own failure. Nothing was committed, so that is
 * an outage like any other SQL failure (a 503), not an unexpected one (a 500).
 */
const rollbackLost = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E | SqlError.SqlError, R> =>
  Effect.catchCause(self, (cause): Effect.Effect<never, E | SqlError.SqlError> => {
    const lost = cause.reasons.filter(Cause.isDieReason).find((reason) => SqlError.isSqlError(reason.defect))
    return lost === undefined ? Effect.failCause(cause) : Effect.fail(lost.defect as SqlError.SqlError)
  })

/** Runs `self` in a SQL transaction; any SQL failure of the transaction itself is PersistenceUnavailable. */
export const inTransaction =
  (sql: SqlClient.SqlClient, operation: string) =>
  <A, E, R>(self: Effect.Effect<A, E, R>) =>
    orUnavailable(operation)(rollbackLost(sql.withTransaction(self)))

/**
 * The Transactor port over SQL transactions. A nested `withTransaction` joins the transaction already open (no
 * savepoint), so a failure anywhere rolls back the whole unit, exactly as the in-memory transactor behaves;
 * `withSavepoint` inside an open transaction is `sql.withTransaction`'s nested form, a SAVEPOINT rolled back to when
 * its effect fails.
 */
export const TransactorPg = Layer.effect(
  Transactor,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return Transactor.of({
      withTransaction: <A, E, R>(self: Effect.Effect<A, E, R>) =>
        Effect.flatMap(
          Effect.serviceOption(sql.transactionService),
          (open): Effect.Effect<A, E | PersistenceUnavailable, R> =>
            Option.isSome(open) ? self : inTransaction(sql, "transaction")(self)
        ),
      withSavepoint: inTransaction(sql, "savepoint")
    })
  })
)

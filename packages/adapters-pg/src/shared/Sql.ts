import { PersistenceUnavailable, Transactor } from "@svc/domain"
import { Cause, Context, Effect, Layer, Option, Ref, Schedule } from "effect"
import { SqlClient, SqlError, type Statement } from "effect/sql"

/**
 * Whether the database aborted a statement's transaction in a conflict with another transaction: a deadlock (40P01)
 * or a serialization failure (40001).
 */
const lostConflict = (error: unknown) =>
  SqlError.isSqlError(error) && (error.reason._tag === "DeadlockError" || error.reason._tag === "SerializationError")

/** The outermost transaction open in context, as `inTransaction` follows each run of it. */
interface Outermost {
  /**
   * Set once a statement lost a conflict. The database then aborted the whole transaction, which may run again from
   * the start, whatever error its code made of the failure on the way out (an HTTP handler inside an idempotency
   * transaction answers it as a 503).
   */
  readonly conflictLost: Ref.Ref<boolean>
  /** What runs once it commits (`Transactor.afterCommit`). */
  readonly afterCommit: Ref.Ref<ReadonlyArray<Effect.Effect<void>>>
}

/** The outermost transaction open in context; none outside a transaction. */
const Outermost = Context.Reference<Outermost | undefined>("@svc/adapters-pg/Outermost", {
  defaultValue: () => undefined
})

/** Turns any SQL failure into the domain's PersistenceUnavailable; the SQL text and cause stay in the logs. */
export const orUnavailable =
  (operation: string) =>
  <A, E, R>(
    self: Effect.Effect<A, E, R>
  ): Effect.Effect<A, Exclude<E, SqlError.SqlError> | PersistenceUnavailable, R> =>
    Effect.catchIf(self, SqlError.isSqlError, (error) =>
      (lostConflict(error)
        ? Effect.logWarning(`database operation ${operation} lost a lock conflict`, error).pipe(
            Effect.andThen(Outermost),
            Effect.flatMap((open) => (open === undefined ? Effect.void : Ref.set(open.conflictLost, true)))
          )
        : Effect.logError(`database operation ${operation} failed`, error)
      ).pipe(Effect.andThen(Effect.fail(new PersistenceUnavailable({ operation }))))
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

/** Runs a savepoint's `self`; when it fails (and rolls back), the after-commit work it queued is dropped with it. */
const droppingAfterCommitOnFailure = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.flatMap(Outermost, (open) =>
    open === undefined
      ? self
      : Effect.flatMap(Ref.get(open.afterCommit), (queued) =>
          Effect.onError(self, () => Ref.set(open.afterCommit, queued))
        )
  )

/** How often a transaction that lost a conflict runs again, and after how long: about 10, then 20 ms, jittered. */
const CONFLICT_RETRIES = 2
const conflictBackoff = Schedule.exponential("10 millis").pipe(Schedule.jittered)

/**
 * Runs `self` in a SQL transaction; any SQL failure of the transaction itself is PersistenceUnavailable. The outermost
 * transaction runs again, up to `CONFLICT_RETRIES` times after a short jittered pause, when the database aborted it in
 * a lock conflict (ADR 0041): all of `self` runs again, so what it does outside the database waits for the commit
 * (`Transactor.afterCommit`). Inside an open transaction it is a savepoint, and a lost conflict reruns the outermost
 * one.
 */
export const inTransaction =
  (sql: SqlClient.SqlClient, operation: string) =>
  <A, E, R>(
    self: Effect.Effect<A, E, R>
  ): Effect.Effect<A, Exclude<E, SqlError.SqlError> | PersistenceUnavailable, R> =>
    Effect.flatMap(Effect.serviceOption(sql.transactionService), (open) => {
      const run = orUnavailable(operation)(rollbackLost(sql.withTransaction(self)))
      if (Option.isSome(open)) return droppingAfterCommitOnFailure(run)
      return Effect.gen(function* () {
        const outermost: Outermost = {
          conflictLost: yield* Ref.make(false),
          afterCommit: yield* Ref.make<ReadonlyArray<Effect.Effect<void>>>([])
        }
        const committed = yield* Effect.all([
          Ref.set(outermost.conflictLost, false),
          Ref.set(outermost.afterCommit, [])
        ]).pipe(
          Effect.andThen(run),
          Effect.provideService(Outermost, outermost),
          Effect.retry({
            schedule: conflictBackoff,
            times: CONFLICT_RETRIES,
            while: () => Ref.get(outermost.conflictLost)
          }),
          Effect.tapError(() =>
            Effect.flatMap(Ref.get(outermost.conflictLost), (gaveUp) =>
              gaveUp
                ? Effect.logError(`database ${operation} lost a lock conflict ${CONFLICT_RETRIES + 1} times in a row`)
                : Effect.void
            )
          )
        )
        yield* Effect.all(yield* Ref.get(outermost.afterCommit), { discard: true })
        return committed
      })
    })

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
      withSavepoint: inTransaction(sql, "savepoint"),
      afterCommit: (effect) =>
        Effect.flatMap(Outermost, (open) =>
          open === undefined ? effect : Ref.update(open.afterCommit, (hooks) => [...hooks, effect])
        )
    })
  })
)

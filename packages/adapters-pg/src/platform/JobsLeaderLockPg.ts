import { PgClient } from "@effect/sql-pg"
import { JobsFence } from "@svc/domain"
import { Data, type Duration, Effect, Layer, Option, type Redacted } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import { SqlClient } from "effect/sql"
import { orUnavailable, reasonOf } from "../shared/index.ts"

/**
 * The background-jobs leader lock: the session advisory lock `(1785688691, 1)` in the two-key form (1785688691 is
 * "jobs" in ASCII). The two-key form is a key space of its own, apart from the one-key space the idempotency locks
 * hash into, so no idempotency key can collide with it. In `pg_locks` it is the row with `locktype = 'advisory'`,
 * `classid = 1785688691`, `objid = 1`, `objsubid = 2`; its holder's `pid` is the leader's lock connection.
 */
export const JOBS_LEADER_LOCK = { classid: 1785688691, objid: 1 } as const

/**
 * The fence beside it, `(1785688691, 2)`: transactions that must not run under a superseded leader take it shared
 * (`JobsFencePg`), and a new leader takes it exclusively once before its jobs start, so it waits for them to end.
 */
const JOBS_FENCE = { classid: 1785688691, objid: 2 } as const

/** The `application_name` of lock connections, so `pg_stat_activity` shows which backends contend. */
export const JOBS_LEADER_APPLICATION_NAME = "svc background-jobs leader"

/** The lock connection could not be opened, or failed: the driver's reason (never the URL). */
export class JobsLeaderConnectionFailed extends Data.TaggedError("JobsLeaderConnectionFailed")<{
  readonly reason: string
}> {}

const failedConnection = (error: unknown) => new JobsLeaderConnectionFailed({ reason: reasonOf(error) })

/** Whether backend `pid` holds the leader lock: one cheap look at `pg_locks`. */
const leaderLockHeldBy = (sql: SqlClient.SqlClient, pid: number) =>
  sql<{ held: boolean }>`
    SELECT EXISTS (
      SELECT 1 FROM pg_locks
      WHERE locktype = 'advisory' AND pid = ${pid} AND granted
        AND classid = ${JOBS_LEADER_LOCK.classid} AND objid = ${JOBS_LEADER_LOCK.objid} AND objsubid = 2
    ) AS held`.pipe(Effect.map(([answer]) => answer?.held === true))

/** A lock this process holds, on a connection of its own. */
export interface HeldJobsLeaderLock {
  /** The lock connection's backend pid (what `pg_terminate_backend` takes). */
  readonly backendPid: number
  /**
   * Whether the lock is still held: one cheap query on the lock connection asking `pg_locks` about this backend.
   * Fails with the driver's error when the connection is lost (terminated backend, failover; a partition only after
   * the keepalives give up: give it a timeout).
   */
  readonly held: Effect.Effect<boolean, JobsLeaderConnectionFailed>
}

/**
 * Opens a connection of its own to the Postgres server at `url` (never a transaction pooler: a session lock needs
 * the same server session for its whole life) and tries the leader lock once, without waiting. Some(lock) when this
 * session got it (once the fence let every transaction that found the previous leader still leading end), None when
 * another session holds it. The lock is released, and the connection closed, when the scope ends;
 * TCP keepalives on both ends make a silent peer's connection fail within about `keepAlive` plus half a minute, so a
 * partitioned leader's lock is freed by the server and a partitioned leader's checks fail.
 */
export const tryJobsLeaderLock = (url: Redacted.Redacted, options: { readonly connectTimeout: Duration.Input }) =>
  Effect.gen(function* () {
    const sql = yield* PgClient.makeClient({
      url,
      connectTimeout: options.connectTimeout,
      keepAlive: "10 seconds",
      applicationName: JOBS_LEADER_APPLICATION_NAME,
      startupParameters: { tcp_keepalives_idle: "10", tcp_keepalives_interval: "5", tcp_keepalives_count: "4" }
    }).pipe(Effect.provide(Reactivity.layer))
    const [row] = yield* sql<{ locked: boolean; pid: number }>`
      SELECT pg_try_advisory_lock(${JOBS_LEADER_LOCK.classid}, ${JOBS_LEADER_LOCK.objid}) AS locked,
             pg_backend_pid() AS pid`
    if (row?.locked !== true) return Option.none<HeldJobsLeaderLock>()
    // A graceful end frees the lock before the connection closes, so the next leader need not wait for the backend
    // to exit; a lost connection frees it on the server's side anyway.
    yield* Effect.addFinalizer(() =>
      sql`SELECT pg_advisory_unlock(${JOBS_LEADER_LOCK.classid}, ${JOBS_LEADER_LOCK.objid})`.pipe(
        Effect.timeout("1 second"),
        Effect.ignore
      )
    )
    // The fence: every transaction that found the previous leader still leading has ended before this one leads.
    yield* sql`SELECT pg_advisory_lock(${JOBS_FENCE.classid}, ${JOBS_FENCE.objid})`
    yield* sql`SELECT pg_advisory_unlock(${JOBS_FENCE.classid}, ${JOBS_FENCE.objid})`
    return Option.some<HeldJobsLeaderLock>({
      backendPid: row.pid,
      held: leaderLockHeldBy(sql, row.pid).pipe(Effect.mapError(failedConnection))
    })
  }).pipe(Effect.mapError(failedConnection))

/**
 * The jobs' fence on Postgres, for the process whose lock connection is `lockBackendPid` (none while it does not
 * lead): inside the caller's transaction, takes the fence shared (held to its end) and then asks `pg_locks` whether
 * that backend still holds the leader lock. A new leader waits for the fence before its jobs start, so what such a
 * transaction writes is there when they do, and a transaction that starts after the new leader took over answers
 * false.
 */
export const JobsFencePg = (lockBackendPid: Effect.Effect<Option.Option<number>>) =>
  Layer.effect(
    JobsFence,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const stillLeading = Effect.gen(function* () {
        const pid = yield* lockBackendPid
        if (Option.isNone(pid)) return false
        yield* sql`SELECT pg_advisory_xact_lock_shared(${JOBS_FENCE.classid}, ${JOBS_FENCE.objid})`
        return yield* leaderLockHeldBy(sql, pid.value)
      }).pipe(orUnavailable("jobsFence.stillLeading"))
      return JobsFence.of({ stillLeading })
    })
  )

import { PgClient } from "@effect/sql-pg"
import { type Duration, Effect, Option, type Redacted } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"

/**
 * The background-jobs leader lock: the session advisory lock `(1785688691, 1)` in the two-key form (1785688691 is
 * "jobs" in ASCII). The two-key form is a key space of its own, apart from the one-key space the idempotency locks
 * hash into, so no idempotency key can collide with it. In `pg_locks` it is the row with `locktype = 'advisory'`,
 * `classid = 1785688691`, `objid = 1`, `objsubid = 2`; its holder's `pid` is the leader's lock connection.
 */
export const JOBS_LEADER_LOCK = { classid: 1785688691, objid: 1 } as const

/** The `application_name` of lock connections, so `pg_stat_activity` shows which backends contend. */
export const JOBS_LEADER_APPLICATION_NAME = "svc background-jobs leader"

/** A lock this process holds, on a connection of its own. */
export interface HeldJobsLeaderLock {
  /** The lock connection's backend pid (what `pg_terminate_backend` takes). */
  readonly backendPid: number
  /**
   * Whether the lock is still held: one cheap query on the lock connection asking `pg_locks` about this backend.
   * Fails with the driver's error when the connection is lost (terminated backend, failover; a partition only after
   * the keepalives give up: give it a timeout).
   */
  readonly held: Effect.Effect<boolean, Error>
}

/**
 * Opens a connection of its own to the Postgres server at `url` (never a transaction pooler: a session lock needs
 * the same server session for its whole life) and tries the leader lock once, without waiting. Some(lock) when this
 * session got it, None when another session holds it. The connection (and with it the lock) ends with the scope;
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
    const held = sql<{ held: boolean }>`
      SELECT EXISTS (
        SELECT 1 FROM pg_locks
        WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND granted
          AND classid = ${JOBS_LEADER_LOCK.classid} AND objid = ${JOBS_LEADER_LOCK.objid} AND objsubid = 2
      ) AS held`.pipe(Effect.map(([answer]) => answer?.held === true))
    return Option.some<HeldJobsLeaderLock>({ backendPid: row.pid, held })
  })

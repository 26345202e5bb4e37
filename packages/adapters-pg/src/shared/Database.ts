import { mkdir } from "node:fs/promises"
import { PgClient } from "@effect/sql-pg"
import { Context, Data, Deferred, Duration, Effect, Layer, Option, Redacted, Ref, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import { runMigrations } from "../migrations/index.ts"
import { ReadReplica } from "./ReplicaReads.ts"

/** Where the service's data lives, for the start-up log line: never the URL's credentials. */
export class DatabaseInfo extends Context.Service<
  DatabaseInfo,
  { readonly description: string; readonly embedded: boolean }
>()("@svc/adapters-pg/DatabaseInfo") {}

const camelNames = new Map<string, string>()

/** snake_case to camelCase, remembered per column name: every row of every result goes through it. */
const camel = (s: string): string => {
  let name = camelNames.get(s)
  if (name === undefined) {
    name = s.replace(/_([a-z])/gu, (_, c: string) => c.toUpperCase())
    camelNames.set(s, name)
  }
  return name
}

/**
 * What sits between the service and Postgres: nothing (`none`), or a pooler in transaction pooling mode
 * (`transaction`, e.g. PgBouncer), which gives each transaction whichever server connection is free (ADR 0049).
 */
export type DatabasePooler = "none" | "transaction"

/**
 * A PgClient on a server URL, with snake_case columns read as camelCase fields. Reached directly, it keeps its
 * statements prepared on each connection (`prepare`), and pipelines statements outside transactions from concurrent
 * fibers on each connection (`multiplex`): one socket write carries several, which roughly halves the client's cost
 * per statement; transactions still hold a connection of their own (the price: a slow statement delays those
 * pipelined behind it). Behind a transaction pooler it does neither: a named statement would reach a server that never
 * prepared it, and a pipeline spans transactions the pooler may hand to different servers.
 */
export const clientForUrl = (url: Redacted.Redacted, maxConnections: number, pooler: DatabasePooler = "none") =>
  PgClient.layer({
    url,
    maxConnections,
    minConnections: 1,
    multiplex: pooler === "none",
    prepare: pooler === "none",
    idleTimeout: "30 seconds",
    connectTimeout: "5 seconds",
    transformResultNames: camel
  })

/**
 * An embedded Postgres (PGlite) served on a loopback socket. Its single backend is shared by every socket, so the
 * pool and the server both allow one connection: the only setting under which transactions stay isolated. PGlite's
 * modules are loaded here, so a process given a server URL never loads them.
 */
export const embeddedServer = (dataDir: string | undefined) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const [{ PGlite }, { PGLiteSocketServer }] = await Promise.all([
        import("@electric-sql/pglite"),
        import("@electric-sql/pglite-socket")
      ])
      if (dataDir !== undefined) await mkdir(dataDir, { recursive: true })
      const db = await PGlite.create(dataDir === undefined ? undefined : { dataDir })
      const server = new PGLiteSocketServer({ db, port: 0, host: "127.0.0.1", maxConnections: 1 })
      await server.start()
      return { db, server, url: `postgres://postgres:postgres@${server.getServerConn()}/postgres` }
    }),
    ({ db, server }) =>
      Effect.promise(async () => {
        await server.stop()
        await db.close()
      })
  )

const embedded = (dataDir: string | undefined) =>
  Layer.unwrap(
    Effect.gen(function* () {
      const { url } = yield* embeddedServer(dataDir)
      return Layer.merge(
        clientForUrl(Redacted.make(url), 1),
        Layer.succeed(DatabaseInfo, {
          description:
            dataDir === undefined
              ? "embedded Postgres (PGlite, in memory)"
              : `embedded Postgres (PGlite) at ${dataDir}`,
          embedded: true
        })
      )
    })
  )

const describeUrl = (url: string): string => {
  try {
    const parsed = new URL(url)
    return `Postgres at ${parsed.hostname}:${parsed.port || "5432"}${parsed.pathname}`
  } catch {
    return "Postgres (DATABASE_URL)"
  }
}

/** The database did not become usable at start-up: the wait timed out, or a migration failed. */
export class DatabaseStartupFailed extends Data.TaggedError("DatabaseStartupFailed")<{ readonly message: string }> {}

/** Whether the start-up migrations have run, and a wait for that moment. */
export class DatabaseStartup extends Context.Service<
  DatabaseStartup,
  {
    /** True once the database answered and every migration ran. */
    readonly migrated: Effect.Effect<boolean>
    /** Waits for the migrations; fails with why the start-up gave up. */
    readonly await: Effect.Effect<void, DatabaseStartupFailed>
  }
>()("@svc/adapters-pg/DatabaseStartup") {}

/** The innermost message of an error and its causes: the reason a connection failed, without the URL or password. */
export const reasonOf = (error: unknown): string => {
  let reason = error instanceof Error ? error.message : String(error)
  for (let cause = error instanceof Error ? error.cause : undefined; cause instanceof Error; cause = cause.cause) {
    reason = cause.message
  }
  return reason
}

/** From half a second, doubling up to ten seconds between attempts. */
const startupBackoff = Schedule.exponential("500 millis").pipe(
  Schedule.modifyDelay(({ duration }) => Effect.succeed(Duration.min(duration, Duration.seconds(10))))
)

/**
 * Runs the migrations as soon as the database answers: a failed attempt (a `SqlError`: unreachable, still starting,
 * or a concurrent first run creating the migrations table) is logged with its reason and retried with capped
 * exponential backoff, for at most `DATABASE_STARTUP_TIMEOUT_SECONDS` when set, else for as long as it takes. A
 * failing migration is not retried.
 */
const migrateWhenReachable = (timeoutSeconds: Option.Option<number>) =>
  Effect.gen(function* () {
    const attempts = yield* Ref.make(0)
    const migrate = runMigrations().pipe(
      Effect.tapError((error) =>
        error._tag === "SqlError"
          ? Ref.updateAndGet(attempts, (n) => n + 1).pipe(
              Effect.flatMap((attempt) =>
                Effect.logWarning(`database not ready (attempt ${attempt}): ${reasonOf(error)}; retrying`)
              )
            )
          : Effect.void
      ),
      Effect.retry({ schedule: startupBackoff, while: (error) => error._tag === "SqlError" }),
      Effect.mapError((error) => new DatabaseStartupFailed({ message: `migrations failed: ${reasonOf(error)}` })),
      Effect.asVoid
    )
    return yield* Option.match(timeoutSeconds, {
      onNone: () => migrate,
      onSome: (seconds) =>
        migrate.pipe(
          Effect.timeoutOrElse({
            duration: Duration.seconds(seconds),
            orElse: () =>
              Effect.fail(
                new DatabaseStartupFailed({
                  message: `the database did not answer within DATABASE_STARTUP_TIMEOUT_SECONDS (${seconds} s)`
                })
              )
          })
        )
    })
  })

/** Migrates in the background from the moment the layer is built, so the service can answer while it waits. */
const MigrationsOnStart = (timeoutSeconds: Option.Option<number>) =>
  Layer.effect(
    DatabaseStartup,
    Effect.gen(function* () {
      const done = yield* Deferred.make<void, DatabaseStartupFailed>()
      const migrated = yield* Ref.make(false)
      yield* migrateWhenReachable(timeoutSeconds).pipe(
        Effect.tap(Ref.set(migrated, true)),
        Deferred.into(done),
        Effect.forkScoped
      )
      return DatabaseStartup.of({ migrated: Ref.get(migrated), await: Deferred.await(done) })
    })
  )

/** Where the database is and how it starts (the API reads them from `DATABASE_URL` and friends). */
export interface DatabaseSettings {
  /** A Postgres server; without it an embedded Postgres keeps its data under `dataDir`. */
  readonly url: Option.Option<Redacted.Redacted<string>>
  readonly poolSize: number
  /** What sits between the service and the server at `url` (and at `readUrl`, reached the same way). */
  readonly pooler: DatabasePooler
  /** A replica for lists and reports (ADR 0052), a pool of `poolSize` beside the primary's; only with `url`. */
  readonly readUrl: Option.Option<Redacted.Redacted<string>>
  readonly dataDir: string
  /** How long the migrations may wait for the database; for as long as it takes when none. */
  readonly startupTimeoutSeconds: Option.Option<number>
}

/** The replica's client, in a pool of its own (the replica's SqlClient must not replace the primary's). */
const replicaAt = (url: Redacted.Redacted, settings: DatabaseSettings) =>
  Layer.effect(
    ReadReplica,
    Effect.map(Layer.build(clientForUrl(url, settings.poolSize, settings.pooler)), (services) =>
      Context.get(services, SqlClient.SqlClient)
    )
  )

/**
 * The database of its settings: the Postgres server at `url` when set (a pool of `poolSize`, and one more on the
 * replica at `readUrl` when set), else an embedded Postgres whose data lives under `dataDir`. The migrations run in
 * the background until they succeed (`DatabaseStartup`), so a database that is down at start-up delays readiness,
 * not the process.
 */
export const DatabaseLive = (
  settings: DatabaseSettings
): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient | DatabaseInfo | DatabaseStartup, unknown> => {
  const base = Option.match(settings.url, {
    onNone: () => embedded(settings.dataDir),
    onSome: (u) =>
      Layer.mergeAll(
        clientForUrl(u, settings.poolSize, settings.pooler),
        Layer.succeed(DatabaseInfo, { description: describeUrl(Redacted.value(u)), embedded: false }),
        Option.match(settings.readUrl, { onNone: () => Layer.empty, onSome: (r) => replicaAt(r, settings) })
      )
  })
  return MigrationsOnStart(settings.startupTimeoutSeconds).pipe(Layer.provideMerge(base))
}

import { mkdir } from "node:fs/promises"
import { PgClient } from "@effect/sql-pg"
import { PGlite } from "@electric-sql/pglite"
import { PGLiteSocketServer } from "@electric-sql/pglite-socket"
import { Config, Context, Effect, Layer, Option, Redacted } from "effect"
import type { SqlClient } from "effect/sql"
import { Migrations } from "../migrations/index.ts"

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
 * A PgClient on a server URL, with snake_case columns read as camelCase fields. Statements outside transactions from
 * concurrent fibers are pipelined on each connection (`multiplex`): one socket write carries several, which roughly
 * halves the client's cost per statement; transactions still hold a connection of their own. The price: a slow
 * statement delays those pipelined behind it on the same connection.
 */
export const clientForUrl = (url: Redacted.Redacted, maxConnections: number) =>
  PgClient.layer({
    url,
    maxConnections,
    minConnections: 1,
    multiplex: true,
    idleTimeout: "30 seconds",
    connectTimeout: "5 seconds",
    transformResultNames: camel
  })

/**
 * An embedded Postgres (PGlite) served on a loopback socket. Its single backend is shared by every socket, so the
 * pool and the server both allow one connection: the only setting under which transactions stay isolated.
 */
export const embeddedServer = (dataDir: string | undefined) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
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

/**
 * The database from configuration: `DATABASE_URL` when set (pool size `DB_POOL_SIZE`, default 10), else an embedded
 * Postgres whose data lives under `PGLITE_DATA_DIR` (default `.data/pglite`). Migrations run before it is handed out.
 */
export const DatabaseLive: Layer.Layer<PgClient.PgClient | SqlClient.SqlClient | DatabaseInfo, unknown> = Layer.unwrap(
  Effect.gen(function* () {
    const url = yield* Config.option(Config.Redacted("DATABASE_URL"))
    const poolSize = yield* Config.Int("DB_POOL_SIZE").pipe(Config.withDefault(10))
    const dataDir = yield* Config.String("PGLITE_DATA_DIR").pipe(Config.withDefault(".data/pglite"))
    const base = Option.match(url, {
      onNone: () => embedded(dataDir),
      onSome: (u) =>
        Layer.merge(
          clientForUrl(u, poolSize),
          Layer.succeed(DatabaseInfo, { description: describeUrl(Redacted.value(u)), embedded: false })
        )
    })
    return Migrations.pipe(Layer.provideMerge(base))
  })
)

import { Config, Context, Effect, Layer, Option, Redacted } from "effect"
import { type Migrator, SqlClient } from "effect/sql"
import { migrations, migrationsBefore, runMigrations } from "../migrations/index.ts"
import { clientForUrl, type DatabasePooler, embeddedServer, ReadReplica } from "../shared/index.ts"

/**
 * The URL of the database a test layer created, and what sits in front of it (`DATABASE_POOLER`), for tests that open
 * their own pools on it or start other processes against it.
 */
export class TestDatabaseUrl extends Context.Service<
  TestDatabaseUrl,
  { readonly url: string; readonly embedded: boolean; readonly pooler: DatabasePooler }
>()("@svc/adapters-pg/testing/TestDatabaseUrl") {}

const withDatabase = (url: string, database: string): string => {
  const parsed = new URL(url)
  parsed.pathname = `/${database}`
  return parsed.toString()
}

const freshDatabaseOn = (serverUrl: string, pooler: DatabasePooler) =>
  Effect.acquireRelease(
    Effect.gen(function* () {
      const name = `svc_test_${crypto.randomUUID().replaceAll("-", "")}`
      yield* Effect.scoped(
        Effect.gen(function* () {
          const admin = yield* Layer.build(clientForUrl(Redacted.make(serverUrl), 1, pooler))
          const sql = Context.get(admin, SqlClient.SqlClient)
          yield* sql.unsafe(`CREATE DATABASE ${name}`)
        })
      )
      return { name, url: withDatabase(serverUrl, name) }
    }),
    ({ name }) =>
      Effect.scoped(
        Effect.gen(function* () {
          const admin = yield* Layer.build(clientForUrl(Redacted.make(serverUrl), 1, pooler))
          const sql = Context.get(admin, SqlClient.SqlClient)
          yield* sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
        })
      ).pipe(Effect.orDie)
  )

/**
 * An empty database of its own for one test file, not migrated: a fresh database on the `DATABASE_URL` server
 * (dropped afterwards; through a transaction pooler with `DATABASE_POOLER=transaction`, as `npm run test:pooler`
 * runs it), or an in-memory embedded Postgres when `DATABASE_URL` is unset. For tests of the migrations.
 */
export const EmptyTestDatabase = Layer.unwrap(
  Effect.gen(function* () {
    const serverUrl = yield* Config.option(Config.String("DATABASE_URL"))
    const pooler = yield* Config.Literals(["none", "transaction"], "DATABASE_POOLER").pipe(
      Config.withDefault("none" as const)
    )
    const target = yield* Option.match(serverUrl, {
      onNone: () => Effect.map(embeddedServer(undefined), ({ url }) => ({ url, embedded: true, pool: 1 })),
      onSome: (server) => Effect.map(freshDatabaseOn(server, pooler), ({ url }) => ({ url, embedded: false, pool: 8 }))
    })
    return clientForUrl(Redacted.make(target.url), target.pool, pooler).pipe(
      Layer.merge(Layer.succeed(TestDatabaseUrl, { url: target.url, embedded: target.embedded, pooler }))
    )
  })
).pipe(Layer.orDie)

/** `EmptyTestDatabase` with the loader's migrations applied. */
const migratedBy = (loader: Migrator.Loader) =>
  Layer.effectDiscard(runMigrations(loader)).pipe(Layer.provideMerge(EmptyTestDatabase), Layer.orDie)

/** A fully migrated database of its own for one test file. */
export const TestDatabase = migratedBy(migrations)

/** A database migrated up to, not including, migration `id`: run `runMigrations()` to apply the rest. */
export const TestDatabaseBefore = (id: number) => migratedBy(migrationsBefore(id))

/**
 * A read replica for tests: a pool of its own on the test's database (`TestDatabaseUrl`), so the replica's reads see
 * every commit and a suite's answers stay the same while its lists and reports run on a second client (ADR 0052).
 */
export const ReplicaOnTestDatabase = Layer.effect(
  ReadReplica,
  Effect.gen(function* () {
    const { url, embedded, pooler } = yield* TestDatabaseUrl
    // The embedded server takes one connection, which the primary's pool holds: it cannot give a replica its own.
    if (embedded) return yield* Effect.serviceOption(SqlClient.SqlClient).pipe(Effect.map(Option.getOrUndefined))
    const services = yield* Layer.build(clientForUrl(Redacted.make(url), 4, pooler))
    return Context.get(services, SqlClient.SqlClient)
  })
).pipe(Layer.orDie)

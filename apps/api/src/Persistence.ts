import { FileStorageFs } from "@svc/adapters-fs"
import { Readiness } from "@svc/adapters-http"
import { FileStorageMemory } from "@svc/adapters-memory"
import { DatabaseLive, type PortsPg } from "@svc/adapters-pg"
import { DEFAULT_MAX_FILE_BYTES, MaxFileBytes } from "@svc/domain"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { databaseConfig, type ServiceConfig } from "./Config.ts"

/** Every port the application needs: what each adapter package's `Ports` layer provides. */
export type Ports = Layer.Success<typeof PortsPg>

/** The database `DATABASE_URL` names, else the embedded one, migrated from the moment it is built. */
export const Database = Layer.unwrap(Effect.map(databaseConfig, DatabaseLive))

/** Readiness over SQL: the one dependency, `database`, answers `SELECT 1` within two seconds. */
export const SqlReadiness = Layer.effect(
  Readiness,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return Readiness.of({
      dependencies: [
        {
          name: "database",
          check: sql`SELECT 1`.pipe(
            Effect.timeout("2 seconds"),
            Effect.as(true),
            Effect.orElseSucceed(() => false)
          )
        }
      ]
    })
  })
)

/** Readiness without a database: the in-memory store, always ready. */
export const AlwaysReady = Layer.succeed(Readiness, { dependencies: [{ name: "memory", check: Effect.succeed(true) }] })

/** The file store: on disk under `fileStorageDir` when configured, else in memory; with the per-file limit. */
export const fileStorage = (config: ServiceConfig) =>
  Layer.merge(
    config.fileStorageDir === undefined ? FileStorageMemory : FileStorageFs(config.fileStorageDir),
    Layer.succeed(MaxFileBytes, config.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES)
  )

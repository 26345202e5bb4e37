import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll } from "@effect/vitest"
import { TestDatabase, TestDatabaseUrl } from "@svc/adapters-pg/testing"
import { Effect, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { type Running, startApi } from "./Processes.ts"

/** API processes for tests that need the real server on a database of their own (processes: `Processes.ts`). */
export { answers, freePort, type Running, startApi } from "./Processes.ts"

/**
 * The database for the server process: a fresh one on DATABASE_URL's server (and, behind a transaction pooler, the
 * server's own address as `DATABASE_DIRECT_URL`), else an embedded one in a temp dir.
 */
export const databaseEnv = async (): Promise<{
  readonly env: Record<string, string>
  readonly release: () => Promise<void>
}> => {
  if (process.env.DATABASE_URL === undefined) {
    const dir = await mkdtemp(join(tmpdir(), "svc-e2e-"))
    return { env: { PGLITE_DATA_DIR: dir }, release: () => rm(dir, { recursive: true, force: true }) }
  }
  const runtime = ManagedRuntime.make(TestDatabase)
  const env = await runtime.runPromise(
    Effect.gen(function* () {
      const { url, pooler } = yield* TestDatabaseUrl
      if (pooler === "none") return { DATABASE_URL: url }
      // Behind a transaction pooler the background-jobs leader lock needs Postgres itself: the server the pooler
      // connects to, as that server sees it (ADR 0050).
      const sql = yield* SqlClient.SqlClient
      const [server] = yield* sql<{ host: string; port: number }>`
        SELECT host(inet_server_addr()) AS host, inet_server_port() AS port`
      const direct = new URL(url)
      direct.hostname = server?.host ?? "127.0.0.1"
      direct.port = String(server?.port ?? 5432)
      return { DATABASE_URL: url, DATABASE_DIRECT_URL: direct.toString() }
    })
  )
  return { env, release: () => runtime.dispose() }
}

/**
 * API processes of one `describe` block over one fresh database (`databaseEnv`), made in its `beforeAll`: `start`
 * spawns a process on it (with `extra` environment), and after the block every process still running is killed and
 * the database released. Call it at the top of the block, before the block's own hooks.
 */
export const apiProcesses = () => {
  let database: Awaited<ReturnType<typeof databaseEnv>> | undefined
  const started: Array<Running> = []
  beforeAll(async () => {
    database = await databaseEnv()
  }, 60_000)
  afterAll(async () => {
    for (const server of started) if (server.child.exitCode === null) server.child.kill("SIGKILL")
    await database?.release()
  })
  const env = (): Record<string, string> => {
    if (database === undefined) throw new Error("apiProcesses: its database exists only inside the describe block")
    return database.env
  }
  return {
    env,
    start: async (extra: Record<string, string> = {}, until: "listening" | "ready" = "ready", entry?: string) => {
      const server = await startApi({ ...env(), ...extra }, until, entry)
      started.push(server)
      return server
    }
  }
}

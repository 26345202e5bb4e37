import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll } from "@effect/vitest"
import { TestDatabase, TestDatabaseUrl } from "@svc/adapters-pg/testing"
import { Effect, ManagedRuntime } from "effect"
import { type Running, startApi } from "./Processes.ts"

/** API processes for tests that need the real server on a database of their own (processes: `Processes.ts`). */
export { answers, freePort, type Running, startApi } from "./Processes.ts"

/** The database for the server process: a fresh one on DATABASE_URL's server, else an embedded one in a temp dir. */
export const databaseEnv = async () => {
  if (process.env.DATABASE_URL === undefined) {
    const dir = await mkdtemp(join(tmpdir(), "svc-e2e-"))
    return { env: { PGLITE_DATA_DIR: dir }, release: () => rm(dir, { recursive: true, force: true }) }
  }
  const runtime = ManagedRuntime.make(TestDatabase)
  const { url } = await runtime.runPromise(
    Effect.gen(function* () {
      return yield* TestDatabaseUrl
    })
  )
  return { env: { DATABASE_URL: url }, release: () => runtime.dispose() }
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
    start: async (extra: Record<string, string> = {}, until: "listening" | "ready" = "ready") => {
      const server = await startApi({ ...env(), ...extra }, until)
      started.push(server)
      return server
    }
  }
}

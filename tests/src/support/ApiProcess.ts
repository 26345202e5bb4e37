import { type ChildProcess, spawn } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll } from "@effect/vitest"
import { TestDatabase, TestDatabaseUrl } from "@svc/adapters-pg/testing"
import { Effect, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { SESSION_SECRET } from "./Session.ts"

/**
 * The real API process for tests that need one (`apps/api/src/main.ts` on Node 24): a free port, a database of its
 * own, and the output it prints.
 */
const ROOT = fileURLToPath(new URL("../../../", import.meta.url))

/** A TCP port nothing listens on (yet). */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address()
      probe.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject()))
    })
  })

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

export interface Running {
  readonly child: ChildProcess
  readonly baseUrl: string
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  readonly output: () => string
  /** Resolves once the process has printed `text` (on stdout or stderr). */
  readonly printed: (text: string) => Promise<void>
}

/** Polls `url` until it answers `status`, or throws with the process output after `timeoutMs`. */
export const answers = async (url: string, status: number, output: () => string, timeoutMs = 90_000) => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const answered = await fetch(url).then(
      async (response) => {
        await response.body?.cancel()
        return response.status
      },
      () => undefined
    )
    if (answered === status) return
    if (Date.now() > deadline) throw new Error(`${url} did not answer ${status} (last: ${answered}):\n${output()}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

/**
 * Starts the API and resolves once it listens and, unless `until` is "listening", once `/health/ready` answers 200
 * (the database answered and the migrations ran).
 */
export const startApi = async (
  env: Record<string, string>,
  until: "listening" | "ready" = "ready"
): Promise<Running> => {
  const port = await freePort()
  const { DATABASE_URL: _ignored, ...inherited } = process.env
  const child = spawn(process.execPath, ["apps/api/src/main.ts"], {
    cwd: ROOT,
    env: { ...inherited, ...env, PORT: String(port), HOST: "127.0.0.1", SESSION_JWT_SECRET: SESSION_SECRET },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()))
  const printed = (text: string) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (!output.includes(text)) return
        child.stdout?.off("data", check)
        child.stderr?.off("data", check)
        resolve()
      }
      child.stdout?.on("data", check)
      child.stderr?.on("data", check)
      check()
    })
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal }))
  )
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 90_000)
    void printed("listening on").then(() => {
      clearTimeout(timer)
      resolve()
    })
    void exited.then(({ code }) => reject(new Error(`server exited with ${code} before listening:\n${output}`)))
  })
  const baseUrl = `http://127.0.0.1:${port}`
  if (until === "ready") await answers(`${baseUrl}/health/ready`, 200, () => output)
  return { child, baseUrl, exited, output: () => output, printed }
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

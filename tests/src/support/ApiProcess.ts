import { type ChildProcess, spawn } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { TestDatabase, TestDatabaseUrl } from "@svc/adapters-pg/testing"
import { Effect, ManagedRuntime } from "effect"
import { SESSION_SECRET } from "./Session.ts"

/**
 * The real API process for tests that need one (`apps/api/src/main.ts` on Node 24): a free port, a database of its
 * own, and the output it prints.
 */
const ROOT = fileURLToPath(new URL("../../../", import.meta.url))

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address()
      probe.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject()))
    })
  })

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

export interface Running {
  readonly child: ChildProcess
  readonly baseUrl: string
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  readonly output: () => string
  /** Resolves once the process has printed `text` (on stdout or stderr). */
  readonly printed: (text: string) => Promise<void>
}

export const startApi = async (env: Record<string, string>): Promise<Running> => {
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
  return { child, baseUrl: `http://127.0.0.1:${port}`, exited, output: () => output, printed }
}

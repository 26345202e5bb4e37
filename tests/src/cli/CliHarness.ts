import { execFile } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll } from "@effect/vitest"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { appOnPostgres } from "@svc/api"
import { Effect, Layer, ManagedRuntime } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import type { SqlClient } from "effect/sql"
import { clientOf, testConfig } from "../support/InProcessApp.ts"
import { loopbackServer } from "../support/LoopbackServer.ts"

const main = fileURLToPath(new URL("../../../apps/cli/src/main.ts", import.meta.url))

/** What one run of `svc` did: its exit code, stdout and stderr. */
export interface Run {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/**
 * The whole app on the file's own database (real Postgres with `DATABASE_URL`, else the embedded one), served on a
 * loopback socket for `svc` child processes; `app.call` sets up teams and keys through the same app.
 */
export const cliOnPostgres = () => {
  const runtime = ManagedRuntime.make(TestDatabase)
  let handler: (request: Request) => Promise<Response> = () => Promise.reject(new Error("not started"))
  let dispose: () => Promise<void> = async () => undefined
  beforeAll(async () => {
    const context = await runtime.runPromise(Effect.context<SqlClient.SqlClient>())
    ;({ handler, dispose } = HttpRouter.toWebHandler(
      appOnPostgres(testConfig).pipe(
        Layer.provide(Layer.succeedContext(context)),
        Layer.provide(HttpServer.layerServices)
      ),
      { disableLogger: true }
    ))
  }, 120_000)
  afterAll(async () => {
    await dispose()
    await runtime.dispose()
  })
  const server = loopbackServer((request) => handler(request))
  return { app: clientOf((request) => handler(request)), baseUrl: () => server.baseUrl() }
}

/** A fresh config home for `svc` (its `XDG_CONFIG_HOME`), removed after the file's tests. */
export const configHome = () => {
  const dirs: Array<string> = []
  afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))))
  return async () => {
    const dir = await mkdtemp(join(tmpdir(), "svc-cli-"))
    dirs.push(dir)
    return dir
  }
}

/**
 * Runs `svc` as a user would: a child process on this Node with `args`, the environment `env` alone (plus PATH and
 * one attempt per call, no retries), stdin closed.
 */
/** Quotes a word for `sh`. */
const shellWord = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`

/**
 * One run of `svc` on a terminal: util-linux's `script` gives it a pseudo-terminal, and its `stdout` is everything
 * the terminal showed (stdout and stderr together, as written, carriage returns included).
 */
export const svcOnTerminal = (args: ReadonlyArray<string>, env: Readonly<Record<string, string>>): Promise<Run> =>
  new Promise((resolve) => {
    const command = [process.execPath, main, ...args].map(shellWord).join(" ")
    execFile(
      "script",
      ["-qec", command, "/dev/null"],
      { env: { PATH: process.env.PATH ?? "", SVC_RETRY_MAX_MS: "0", TERM: "xterm", ...env }, timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : -1, stdout, stderr })
    )
  })

export const svc = (args: ReadonlyArray<string>, env: Readonly<Record<string, string>>): Promise<Run> =>
  new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [main, ...args],
      { env: { PATH: process.env.PATH ?? "", SVC_RETRY_MAX_MS: "0", ...env }, timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : -1, stdout, stderr })
    )
    child.stdin?.end()
  })

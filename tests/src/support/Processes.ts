import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { chownSync, openSync } from "node:fs"
import { createConnection, createServer } from "node:net"
import { fileURLToPath } from "node:url"
import { SESSION_SECRET } from "./Session.ts"

/**
 * Processes the tests and the test scripts start and watch: the API (its sources or its bundle, on this Node), and the
 * daemons of a deployment (PgBouncer, etcd, Patroni, HAProxy). Nothing here needs vitest, so scripts import it too.
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

/** The sources' entry point (run with Node's type stripping), and the bundle `npm start` builds and runs (ADR 0063). */
const API_SOURCES = "apps/api/src/main.ts"
export const API_BUNDLE = "apps/api/dist/main.js"

/**
 * Starts the API from `entry` (the sources unless given) on `env.PORT` when given, else a free port, and resolves once
 * it listens and, unless `until` is "listening", once `/health/ready` answers 200 (the database answered and the
 * migrations ran).
 */
export const startApi = async (
  env: Record<string, string>,
  until: "listening" | "ready" = "ready",
  entry: string = API_SOURCES
): Promise<Running> => {
  const port = env.PORT === undefined ? await freePort() : Number(env.PORT)
  const { DATABASE_URL: _ignored, ...inherited } = process.env
  const child = spawn(process.execPath, [entry], {
    cwd: ROOT,
    env: { ...inherited, SESSION_JWT_SECRET: SESSION_SECRET, ...env, PORT: String(port), HOST: "127.0.0.1" },
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

/** Whether `port` can be listened on at 127.0.0.1 now. */
const bindable = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = createServer()
    probe.once("error", () => resolve(false))
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)))
  })

/** Ports handed out by `daemonPort` in this process, never handed out twice. */
const handedOut = new Set<number>()

/**
 * A loopback port for a daemon that another process will listen on later: below Linux's ephemeral range
 * (32768-60999), so no outgoing connection takes it in the meantime, as a port from `freePort` can be.
 */
export const daemonPort = async (): Promise<number> => {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000)
    if (!handedOut.has(port) && (await bindable(port))) {
      handedOut.add(port)
      return port
    }
  }
}

/** Whether something accepts TCP connections on the loopback `port`. */
export const accepts = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = createConnection({ port, host: "127.0.0.1" })
    socket.once("connect", () => socket.end(() => resolve(true)))
    socket.once("error", () => resolve(false))
  })

/** Polls `check` every 100 ms until it holds; throws naming `what` after `timeoutMs`. */
export const waitUntil = async (what: string, check: () => Promise<boolean> | boolean, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** The `postgres` OS user's uid and gid: PgBouncer, Postgres and Patroni refuse to run as root. */
const postgresUser = () => ({
  uid: Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim()),
  gid: Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim())
})

/** As root, hands `path` to the `postgres` user and answers true; otherwise leaves it and answers false. */
export const handToPostgres = (path: string): boolean => {
  if (process.getuid?.() !== 0) return false
  const { uid, gid } = postgresUser()
  chownSync(path, uid, gid)
  return true
}

/** A daemon started with its output in a log file. */
export interface Daemon {
  readonly name: string
  readonly child: ChildProcess
  readonly exited: Promise<void>
  /** Whether it still runs. */
  readonly running: () => boolean
  /** Sends `signal` (SIGTERM by default) and waits until it has exited. */
  readonly stop: (signal?: NodeJS.Signals) => Promise<void>
}

/**
 * Starts `command` with `args` and `env` (added to this process's), its output appended to `log`; as the `postgres`
 * user when `asPostgres` and this process is root.
 */
export const startDaemon = (
  name: string,
  command: string,
  args: ReadonlyArray<string>,
  options: { readonly env?: Record<string, string>; readonly log: string; readonly asPostgres?: boolean }
): Daemon => {
  const out = openSync(options.log, "a")
  const asUser = options.asPostgres === true && process.getuid?.() === 0 ? postgresUser() : {}
  const child = spawn(command, [...args], {
    ...asUser,
    env: { ...process.env, ...options.env },
    stdio: ["ignore", out, out]
  })
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  const running = () => child.exitCode === null && child.signalCode === null
  return {
    name,
    child,
    exited,
    running,
    stop: async (signal = "SIGTERM") => {
      if (running()) child.kill(signal)
      await exited
    }
  }
}

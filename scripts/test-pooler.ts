/**
 * Runs the money suites through PgBouncer in transaction pooling mode (`npm run test:pooler`): a PgBouncer started
 * here from deploy/pgbouncer/pgbouncer.ini on a free loopback port, in front of the Postgres at 127.0.0.1:5432, and
 * vitest on the suites below with `DATABASE_URL` pointing at it and `DATABASE_POOLER=transaction`, as a deployment
 * behind the pooler runs. Arguments narrow the suites (folders or files) or go to vitest as options (`--reporter=dot`). Exits with vitest's code.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import {
  accessSync,
  chmodSync,
  chownSync,
  constants,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync
} from "node:fs"
import { createConnection, createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"

/** The suites whose money must survive the pooler: spend, transfers, checkout, crypto, the outbox, idempotency. */
const SUITES = [
  "tests/src/spend",
  "tests/src/transfers",
  "tests/src/checkout",
  "tests/src/crypto",
  "tests/src/ledger",
  "tests/src/approvals",
  "tests/src/webhooks",
  "tests/src/platform/idempotency"
]

const DEPLOY_CONFIG = new URL("../deploy/pgbouncer/pgbouncer.ini", import.meta.url).pathname

const pgbouncerBinary = (): string => {
  for (const candidate of ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer"]) {
    try {
      accessSync(candidate, constants.X_OK)
      return candidate
    } catch {}
  }
  console.error("test:pooler needs pgbouncer (Debian: apt-get install pgbouncer)")
  process.exit(1)
}

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject()))
    })
  })

const accepts = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = createConnection({ port, host: "127.0.0.1" })
    socket.once("connect", () => socket.end(() => resolve(true)))
    socket.once("error", () => resolve(false))
  })

const listening = async (port: number, pooler: ChildProcess): Promise<void> => {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (pooler.exitCode !== null) throw new Error(`pgbouncer exited with ${pooler.exitCode}`)
    if (await accepts(port)) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error("pgbouncer did not listen within 10 s")
}

/** PgBouncer refuses to run as root: as root it runs as the `postgres` user, which must read its files. */
const runAs = (dir: string): ReadonlyArray<string> => {
  if (process.getuid?.() !== 0) return []
  const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim())
  const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim())
  chownSync(dir, uid, gid)
  chmodSync(dir, 0o755)
  return ["-u", "postgres"]
}

const main = async (): Promise<number> => {
  const binary = pgbouncerBinary()
  const port = await freePort()
  const dir = mkdtempSync(join(tmpdir(), "svc-pooler-"))
  // The deployment's settings, then what differs here: the port, a small pool, trust on loopback, no files of its own.
  // Keys after the include stay in its last section, [pgbouncer] (a new section header would reset the settings).
  writeFileSync(join(dir, "users.txt"), '"postgres" ""\n')
  writeFileSync(
    join(dir, "pgbouncer.ini"),
    [
      `%include ${DEPLOY_CONFIG}`,
      `listen_port = ${port}`,
      // Few server connections for many clients: each transaction's server is seldom its client's last one, so a
      // session assumption shows at once instead of now and then.
      "default_pool_size = 4",
      "reserve_pool_size = 0",
      "auth_type = trust",
      `auth_file = ${join(dir, "users.txt")}`,
      "admin_users =",
      "unix_socket_dir =",
      "logfile =",
      "pidfile =",
      ""
    ].join("\n")
  )
  const log = openSync(join(dir, "pgbouncer.log"), "w")
  const pooler = spawn(binary, [...runAs(dir), join(dir, "pgbouncer.ini")], { stdio: ["ignore", "ignore", log] })
  try {
    await listening(port, pooler)
    console.log(`test:pooler: PgBouncer ${port} (transaction pooling) in front of 127.0.0.1:5432`)
    const args = process.argv.slice(2)
    const folders = args.filter((arg) => !arg.startsWith("-"))
    const options = args.filter((arg) => arg.startsWith("-"))
    // vitest on this very Node (the project's Node 24), whatever `node` the PATH holds.
    const cli = new URL("../node_modules/vitest/vitest.mjs", import.meta.url).pathname
    const vitest = spawn(process.execPath, [cli, "run", ...(folders.length > 0 ? folders : SUITES), ...options], {
      stdio: "inherit",
      env: {
        ...process.env,
        DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/postgres`,
        DATABASE_POOLER: "transaction"
      }
    })
    return await new Promise<number>((resolve) => vitest.once("exit", (code) => resolve(code ?? 1)))
  } catch (error) {
    // PgBouncer logs every connection: its log is shown only when it did not start.
    console.error(String(error), readFileSync(join(dir, "pgbouncer.log"), "utf8").split("\n").slice(-20).join("\n"))
    return 1
  } finally {
    pooler.kill("SIGTERM")
    rmSync(dir, { recursive: true, force: true })
  }
}

process.exitCode = await main()

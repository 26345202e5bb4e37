/**
 * Runs the money suites through PgBouncer in transaction pooling mode (`npm run test:pooler`): a PgBouncer started
 * here from deploy/pgbouncer/pgbouncer.ini on a free loopback port, in front of the Postgres at 127.0.0.1:5432, and
 * vitest on the suites below with `DATABASE_URL` pointing at it and `DATABASE_POOLER=transaction`, as a deployment
 * behind the pooler runs. Arguments narrow the suites (folders or files) or go to vitest as options (`--reporter=dot`). Exits with vitest's code.
 */
import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startPgbouncer } from "../tests/src/support/Pgbouncer.ts"
import { handToPostgres } from "../tests/src/support/Processes.ts"

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

const main = async (): Promise<number> => {
  const dir = mkdtempSync(join(tmpdir(), "svc-pooler-"))
  handToPostgres(dir)
  let pooler: Awaited<ReturnType<typeof startPgbouncer>> | undefined
  try {
    pooler = await startPgbouncer({
      dir,
      server: { host: "127.0.0.1", port: 5432 },
      users: '"postgres" ""\n',
      // Few server connections for many clients: each transaction's server is seldom its client's last one, so a
      // session assumption shows at once instead of now and then. Trust on loopback, as the local Postgres.
      settings: { default_pool_size: "4", reserve_pool_size: "0", auth_type: "trust" }
    })
    console.log(`test:pooler: PgBouncer ${pooler.port} (transaction pooling) in front of 127.0.0.1:5432`)
    const args = process.argv.slice(2)
    const folders = args.filter((arg) => !arg.startsWith("-"))
    const options = args.filter((arg) => arg.startsWith("-"))
    // vitest on this very Node (the project's Node 24), whatever `node` the PATH holds.
    const cli = new URL("../node_modules/vitest/vitest.mjs", import.meta.url).pathname
    const vitest = spawn(process.execPath, [cli, "run", ...(folders.length > 0 ? folders : SUITES), ...options], {
      stdio: "inherit",
      env: {
        ...process.env,
        DATABASE_URL: `postgres://postgres@127.0.0.1:${pooler.port}/postgres`,
        DATABASE_POOLER: "transaction"
      }
    })
    return await new Promise<number>((resolve) => vitest.once("exit", (code) => resolve(code ?? 1)))
  } catch (error) {
    // PgBouncer logs every connection: its log is shown only when it did not start.
    console.error(String(error), readFileSync(join(dir, "pgbouncer.log"), "utf8").split("\n").slice(-20).join("\n"))
    return 1
  } finally {
    await pooler?.daemon.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

process.exitCode = await main()

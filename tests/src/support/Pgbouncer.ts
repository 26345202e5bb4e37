import { accessSync, constants, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { accepts, type Daemon, daemonPort, handToPostgres, startDaemon, waitUntil } from "./Processes.ts"

/** The deployment's PgBouncer settings (ADR 0049), which the pooler and topology suites start from. */
const DEPLOY_CONFIG = new URL("../../../deploy/pgbouncer/pgbouncer.ini", import.meta.url).pathname

/** Debian's pgbouncer binary, or undefined when it is not installed. */
const pgbouncerBinary = (): string | undefined =>
  ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer"].find((candidate) => {
    try {
      accessSync(candidate, constants.X_OK)
      return true
    } catch {
      return false
    }
  })

export interface Pooler {
  readonly port: number
  readonly daemon: Daemon
  readonly log: string
  /** Starts it again on the same port after it stopped (a pooler restart). */
  readonly restart: () => Promise<Pooler>
}

/**
 * Starts PgBouncer from deploy/pgbouncer/pgbouncer.ini in `dir` (which the `postgres` user may read when this is
 * root) with what differs here: every database on `server`, a free loopback port, its own files, and `settings` of
 * the [pgbouncer] section (they follow the deployment's, so they win). `users` is the auth file's content.
 */
export const startPgbouncer = async (options: {
  readonly dir: string
  readonly server: { readonly host: string; readonly port: number }
  readonly users: string
  readonly settings: Record<string, string>
}): Promise<Pooler> => {
  const binary = pgbouncerBinary()
  if (binary === undefined) throw new Error("PgBouncer is not installed (Debian: apt-get install pgbouncer)")
  const port = await daemonPort()
  const deployed = readFileSync(DEPLOY_CONFIG, "utf8")
  const databases = `* = host=${options.server.host} port=${options.server.port}`
  if (!/^\* = .*$/m.test(deployed)) throw new Error(`${DEPLOY_CONFIG} has no '* = ' database line`)
  const users = join(options.dir, "users.txt")
  writeFileSync(users, options.users, { mode: 0o640 })
  // A second [pgbouncer] header would reset the section, so the overrides follow the deployment's own last section.
  const ini = join(options.dir, "pgbouncer.ini")
  writeFileSync(
    ini,
    [
      deployed.replace(/^\* = .*$/m, databases),
      `listen_port = ${port}`,
      `auth_file = ${users}`,
      "admin_users =",
      "unix_socket_dir =",
      "logfile =",
      "pidfile =",
      ...Object.entries(options.settings).map(([key, value]) => `${key} = ${value}`),
      ""
    ].join("\n")
  )
  handToPostgres(users)
  const log = join(options.dir, "pgbouncer.log")
  const start = async (): Promise<Pooler> => {
    const daemon = startDaemon("pgbouncer", binary, [ini], { log, asPostgres: true })
    await waitUntil(
      `PgBouncer did not listen on ${port} (see ${log})`,
      async () => {
        if (!daemon.running()) throw new Error(`PgBouncer exited: ${readFileSync(log, "utf8").slice(-2000)}`)
        return accepts(port)
      },
      10_000
    )
    return { port, daemon, log, restart: start }
  }
  return start()
}

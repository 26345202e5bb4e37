import { execFile } from "node:child_process"
import { existsSync, readdirSync } from "node:fs"
import { chown, mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { delimiter, join } from "node:path"
import { promisify } from "node:util"
import { freePort } from "./ApiProcess.ts"

const run = promisify(execFile)

/** The folder holding `initdb` and `pg_ctl`: on PATH, else the newest `/usr/lib/postgresql/<n>/bin`, else `/usr/local/bin`. */
export const postgresBinaries = (): string | undefined => {
  const versioned = existsSync("/usr/lib/postgresql")
    ? readdirSync("/usr/lib/postgresql")
        .sort((a, b) => Number(b) - Number(a))
        .map((v) => `/usr/lib/postgresql/${v}/bin`)
    : []
  const candidates = [...(process.env.PATH ?? "").split(delimiter), ...versioned, "/usr/local/bin"]
  return candidates.find((dir) => dir !== "" && existsSync(join(dir, "initdb")) && existsSync(join(dir, "pg_ctl")))
}

/**
 * A Postgres cluster of the test's own, on a free loopback port, that the test can stop and start. Postgres refuses to
 * run as root, so as root it runs as the `postgres` OS user, in a temp folder handed to that user.
 */
export const privatePostgres = async (binaries: string) => {
  const port = await freePort()
  const dir = await mkdtemp(join(tmpdir(), "svc-faults-pg-"))
  const data = join(dir, "data")
  const asRoot = process.getuid?.() === 0
  if (asRoot) {
    const { stdout } = await run("id", ["-u", "postgres"])
    const { stdout: gid } = await run("id", ["-g", "postgres"])
    await chown(dir, Number(stdout.trim()), Number(gid.trim()))
  }
  const tool = (name: string, args: ReadonlyArray<string>) =>
    asRoot
      ? run("runuser", ["-u", "postgres", "--", join(binaries, name), ...args])
      : run(join(binaries, name), [...args])
  await tool("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "--no-sync", "--no-instructions"])
  // fsync off: the faults here stop the server processes, not the machine, so written pages survive in the OS cache.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`
  const start = () => tool("pg_ctl", ["-D", data, "-l", join(dir, "log"), "-o", options, "-w", "-t", "60", "start"])
  await start()
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    /** Starts the stopped server; resolves once it accepts connections. */
    start: async () => {
      await start()
    },
    /** Kills the server at once (`-m immediate`: no shutdown checkpoint, crash recovery on the next start). */
    stopImmediately: async () => {
      await tool("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"])
    },
    /** Stops the server if it runs and removes its files. */
    remove: async () => {
      await tool("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]).catch(() => undefined)
      await rm(dir, { recursive: true, force: true })
    }
  }
}

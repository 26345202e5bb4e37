/**
 * CPU time of the processes a benchmark scenario keeps busy, read from /proc (Linux; elsewhere none): the service
 * process (its request handling and its background workers), every Postgres process on the machine, and the
 * benchmark process itself (load generator or SQL client).
 */

import { readdirSync, readFileSync } from "node:fs"

/** Kernel clock ticks per second, as /proc/<pid>/stat counts them (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100

/**
 * User plus system CPU seconds of a process and of its children that ended, from /proc/<pid>/stat; 0 when it cannot
 * be read. A Postgres backend that exits is reaped by the postmaster, so its time moves to the postmaster's children.
 */
const processSeconds = (pid: string): { readonly name: string; readonly seconds: number } => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"))
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    const ticks = fields.slice(11, 15).reduce((sum, field) => sum + Number(field), 0)
    return { name, seconds: ticks / TICKS_PER_SECOND }
  } catch {
    return { name: "", seconds: 0 }
  }
}

interface Sample {
  readonly at: number
  readonly service: number
  /** CPU seconds per Postgres process: a backend that ends between two samples must not count negative. */
  readonly postgres: ReadonlyMap<string, number>
  readonly self: number
}

const sample = (servicePid: number | undefined): Sample | undefined => {
  let pids: ReadonlyArray<string>
  try {
    pids = readdirSync("/proc").filter((entry) => /^\d+$/u.test(entry))
  } catch {
    return undefined
  }
  const usage = process.cpuUsage()
  return {
    at: performance.now(),
    service: servicePid === undefined ? 0 : processSeconds(String(servicePid)).seconds,
    postgres: new Map(
      pids.flatMap((pid) => {
        const p = processSeconds(pid)
        return p.name === "postgres" ? [[pid, p.seconds] as const] : []
      })
    ),
    self: (usage.user + usage.system) / 1e6
  }
}

/**
 * Busy share of one core per process group while `run` ran and during the second after it (when the backends of a
 * closed pool are reaped), in percent, and the service's CPU seconds in that time; undefined where /proc is missing.
 */
export const withCpu = async <A>(
  servicePid: number | undefined,
  run: () => Promise<A>
): Promise<{
  readonly result: A
  readonly cpu: { service: number; postgres: number; bench: number; serviceSeconds: number } | undefined
}> => {
  const before = sample(servicePid)
  const result = await run()
  await new Promise((resolve) => setTimeout(resolve, 1000))
  const after = sample(servicePid)
  if (before === undefined || after === undefined) return { result, cpu: undefined }
  const seconds = (after.at - before.at) / 1000
  const share = (a: number, b: number) => Math.round(((b - a) / seconds) * 100)
  return {
    result,
    cpu: {
      service: share(before.service, after.service),
      postgres: share(
        0,
        Array.from(after.postgres).reduce((sum, [pid, seconds]) => sum + seconds - (before.postgres.get(pid) ?? 0), 0)
      ),
      bench: share(before.self, after.self),
      serviceSeconds: after.service - before.service
    }
  }
}

/** `pgbench` (a C client with prepared statements) running a script against a bench database: the reference figures. */

import { spawn } from "node:child_process"
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type Figures, quantiles } from "./figures.ts"

const run = (command: string, args: ReadonlyArray<string>, cwd: string) =>
  new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ["ignore", "ignore", "pipe"] })
    let stderr = ""
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString()
    })
    child.on("error", reject)
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} exited ${code}: ${stderr.slice(-2000)}`))
    )
  })

/**
 * Runs `script` with `clients` clients for `seconds`, as fast as it goes (a closed loop), or at `ratePerSecond`
 * (an open loop: `--rate` schedules each transaction, and its latency counts from that schedule, so a database that
 * falls behind shows as latency). Figures from pgbench's per-transaction log.
 */
export const pgbench = async (options: {
  readonly name: string
  readonly url: string
  readonly script: string
  readonly clients: number
  readonly seconds: number
  readonly ratePerSecond?: number
}): Promise<Figures> => {
  const dir = await mkdtemp(join(tmpdir(), "svc-pgbench-"))
  try {
    await writeFile(join(dir, "script.sql"), options.script)
    await run(
      "pgbench",
      [
        "--no-vacuum",
        "--protocol=prepared",
        `--client=${options.clients}`,
        "--jobs=2",
        ...(options.ratePerSecond === undefined ? [] : [`--rate=${options.ratePerSecond}`]),
        `--time=${options.seconds}`,
        "--log",
        "--log-prefix=tx",
        "--file=script.sql",
        options.url
      ],
      dir
    )
    // Each line: client, transaction, latency in microseconds, script, epoch, microseconds (and the schedule lag under
    // --rate); a failed transaction has no latency.
    const latencies: Array<number> = []
    let failures = 0
    for (const file of (await readdir(dir)).filter((f) => f.startsWith("tx."))) {
      for (const line of (await readFile(join(dir, file), "utf8")).split("\n")) {
        const latency = line.split(" ")[2]
        if (latency === undefined) continue
        if (/^\d+$/u.test(latency)) latencies.push(Number(latency) / 1000)
        else failures++
      }
    }
    const at = quantiles(latencies)
    return {
      name: options.name,
      requestsPerSecond: latencies.length / options.seconds,
      p50: at(0.5),
      p99: at(0.99),
      failures
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/**
 * The failover suite (`npm run test:topology`): the production topology of deploy/ started on loopback ports (etcd,
 * two Patroni-managed Postgres nodes with a synchronous standby, HAProxy, PgBouncer in transaction mode, API nodes),
 * then each fault of tests/src/topology/Scenarios.ts under a load of spend requests, transfers and card
 * authorizations from clients that retry as the contract says. After each fault it checks that every acknowledged
 * request is in the database once, no key moved money twice, the ledger balances, no budget was exceeded and clients
 * saw no 500, and reports the time from the fault to the first success. Prints `topology: N/M checks hold` and exits
 * 1 unless all hold.
 *
 *   npm run test:topology                  every scenario, 2 API nodes
 *   npm run test:topology -- --short       the primary killed only (what CI runs)
 *   npm run test:topology -- --keep        keeps the run's directory (logs of every daemon) after it ends
 *   npm run test:topology -- --sizing      no faults: throughput with 1, 2 and 3 API nodes
 *
 * Needs root or the `postgres` user, and Debian's etcd-server, patroni, haproxy, pgbouncer and postgresql, which it
 * installs when missing (as root).
 */
import { execFileSync } from "node:child_process"
import { existsSync } from "node:fs"
import { waitUntil } from "../tests/src/support/Processes.ts"
import { type Check, checkInvariants } from "../tests/src/topology/Invariants.ts"
import { readYourWritesAcrossNodes } from "../tests/src/topology/Reads.ts"
import { primaryKilled, SCENARIOS, type Scenario } from "../tests/src/topology/Scenarios.ts"
import { startTopology, type Topology } from "../tests/src/topology/Topology.ts"
import { API_ENV, firstSuccessAfter, type Op, prepareWorkload, startWorkload } from "../tests/src/topology/Workload.ts"

/** The Debian packages the suite runs, each with a file that shows it is installed. */
const PACKAGES: ReadonlyArray<readonly [string, string]> = [
  ["etcd-server", "/usr/bin/etcd"],
  ["patroni", "/usr/bin/patroni"],
  ["haproxy", "/usr/sbin/haproxy"],
  ["pgbouncer", "/usr/sbin/pgbouncer"]
]

/** Load before a fault and after its recovery, so both sides of it carry requests. */
const LOAD_AROUND_MS = 3_000

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Starts the topology, once more if the first bring-up failed (a daemon that lost a race for its port, say). */
const bringUp = (options: Parameters<typeof startTopology>[0]) =>
  startTopology(options).catch((error: unknown) => {
    console.log(`test:topology: ${String(error)}; starting again`)
    return startTopology(options)
  })

const installMissing = () => {
  const missing = PACKAGES.filter(([, file]) => !existsSync(file)).map(([name]) => name)
  if (missing.length === 0) return
  if (process.getuid?.() !== 0) throw new Error(`test:topology needs ${missing.join(", ")} (apt-get install)`)
  console.log(`test:topology: installing ${missing.join(", ")}`)
  const install = () => execFileSync("apt-get", ["install", "-y", ...missing], { stdio: "inherit" })
  try {
    install()
  } catch {
    execFileSync("apt-get", ["update"], { stdio: "inherit" })
    install()
  }
}

/**
 * Runs `scenario` under load and checks it. The database checks hold the whole database to every operation since the
 * suite began (`history`, which this scenario's operations join), so rows of earlier scenarios are accounted for.
 */
const runScenario = async (
  topology: Topology,
  prepared: Awaited<ReturnType<typeof prepareWorkload>>,
  scenario: Scenario,
  history: Array<Op>
): Promise<ReadonlyArray<Check>> => {
  await waitUntil("the topology was not whole before the scenario", topology.healthy, 90_000)
  const target = { baseUrl: topology.baseUrl, databaseUrl: topology.directUrl }
  const workload = startWorkload(prepared, target)
  await sleep(LOAD_AROUND_MS)
  const fault = await scenario.inject(topology)
  const own = await fault.recover()
  await sleep(LOAD_AROUND_MS)
  const report = await workload.stop()
  const recovery = firstSuccessAfter(report, fault.at)
  history.push(...report.ops)
  const invariants = await checkInvariants(topology.directUrl, prepared, { ...report, ops: history })
  return [
    ...own,
    {
      name: "a client succeeded again within the goal after the fault",
      ok: recovery !== undefined && recovery <= scenario.recoveryGoalMs,
      detail:
        recovery === undefined
          ? "no success after the fault"
          : `first success ${recovery} ms after the fault (goal ${scenario.recoveryGoalMs} ms)`
    },
    ...invariants
  ]
}

/** How long each sizing run loads the topology. */
const SIZING_MS = 15_000

/**
 * Throughput with 1, 2 and 3 API nodes: the same workload, no fault, for `SIZING_MS` each; answered operations a
 * second and the share answered within a second.
 */
const sizing = async (): Promise<number> => {
  for (const apiNodes of [1, 2, 3]) {
    const topology = await bringUp({ apiNodes, apiEnv: API_ENV, links: false })
    try {
      const target = { baseUrl: topology.baseUrl, databaseUrl: topology.directUrl }
      const workload = startWorkload(await prepareWorkload(target), target)
      await sleep(SIZING_MS)
      const report = await workload.stop()
      const seconds = (report.stoppedAt - report.startedAt) / 1000
      const answered = report.ops.filter((op) => op.calls.every((call) => call.answer !== undefined))
      const requests = report.ops.flatMap((op) => op.calls).length
      const fast = answered.filter((op) => op.finishedAt - op.startedAt <= 1_000).length
      console.log(
        `${apiNodes} API node(s): ${Math.round(answered.length / seconds)} operations/s ` +
          `(${Math.round(requests / seconds)} requests/s), ${Math.round((100 * fast) / Math.max(answered.length, 1))}% within 1 s`
      )
    } finally {
      await topology.stop()
    }
  }
  return 0
}

const main = async (): Promise<number> => {
  const args = process.argv.slice(2)
  if (args.includes("--sizing")) {
    installMissing()
    return sizing()
  }
  const scenarios = args.includes("--short") ? [primaryKilled] : SCENARIOS
  installMissing()
  const started = Date.now()
  const topology = await bringUp({ apiNodes: 2, apiEnv: API_ENV })
  console.log(`test:topology: up in ${Date.now() - started} ms (logs: ${topology.logs})`)
  const results: Array<Check> = []
  try {
    const prepared = await prepareWorkload({ baseUrl: topology.baseUrl, databaseUrl: topology.directUrl })
    const history: Array<Op> = []
    // Read routing before the faults and after them, when another node may lead.
    const reads = async (when: string) => {
      console.log(`\nreads across API nodes (${when})`)
      const checks = await readYourWritesAcrossNodes(topology)
      for (const check of checks) console.log(`  ${check.ok ? "ok  " : "FAIL"} ${check.name}: ${check.detail}`)
      results.push(...checks)
    }
    await reads("before the faults")
    for (const scenario of scenarios) {
      console.log(`\n${scenario.name}`)
      const checks = await runScenario(topology, prepared, scenario, history).catch((error: unknown) => [
        { name: "the scenario ran", ok: false, detail: String(error) }
      ])
      for (const check of checks) console.log(`  ${check.ok ? "ok  " : "FAIL"} ${check.name}: ${check.detail}`)
      results.push(...checks)
    }
    await waitUntil("the topology was not whole after the scenarios", topology.healthy, 90_000)
    await reads("after the faults")
  } catch (error) {
    results.push({ name: "the suite ran to its end", ok: false, detail: String(error) })
    console.log(`  FAIL ${String(error)}`)
  } finally {
    await topology.stop(args.includes("--keep"))
  }
  const holding = results.filter((check) => check.ok).length
  console.log(`\ntopology: ${holding}/${results.length} checks hold (${Math.round((Date.now() - started) / 1000)} s)`)
  return holding === results.length && results.length > 0 ? 0 : 1
}

process.exitCode = await main()

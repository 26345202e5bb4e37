import { waitUntil } from "../support/Processes.ts"
import type { Check } from "./Invariants.ts"
import type { ApiNode, Topology } from "./Topology.ts"

/**
 * The faults of the failover suite. Each is injected under load (the workload runs before, during and after it);
 * `inject` answers when the fault began and a `recover` that undoes it (restarts what was killed, heals what was cut)
 * and waits until the topology is whole again, answering checks of its own.
 */
interface Fault {
  /** `Date.now()` when the fault began. */
  readonly at: number
  readonly recover: () => Promise<ReadonlyArray<Check>>
}

export interface Scenario {
  readonly name: string
  /** The longest a client may wait from the fault to its first success, in ms (the suite's goal for it). */
  readonly recoveryGoalMs: number
  readonly inject: (topology: Topology) => Promise<Fault>
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const statusOf = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
    async (response) => {
      await response.body?.cancel()
      return response.status
    },
    () => 0
  )

const check = (name: string, ok: boolean, detail: string): Check => ({ name, ok, detail })

/** Both Postgres nodes back (a leader and its synchronous standby) within a minute. */
const clusterWhole = async (topology: Topology): Promise<Check> => {
  const started = Date.now()
  try {
    await waitUntil("not whole", topology.healthy, 60_000)
    return check("the cluster is whole again", true, `leader and synchronous standby after ${Date.now() - started} ms`)
  } catch {
    return check("the cluster is whole again", false, JSON.stringify(await topology.cluster()))
  }
}

/** Every API node answers ready on its own port again within 30 s. */
const nodesReady = async (topology: Topology): Promise<Check> => {
  const ready = async () =>
    (await Promise.all(topology.nodes.map((node) => statusOf(`http://127.0.0.1:${node.port}/health/ready`)))).every(
      (status) => status === 200
    )
  try {
    await waitUntil("not ready", ready, 30_000)
    return check("every API node is ready again", true, `${topology.nodes.length} nodes`)
  } catch {
    return check("every API node is ready again", false, "a node did not answer ready within 30 s")
  }
}

/** The node whose output last says it became the background-jobs leader (and has not said it lost it since). */
const jobsLeader = (topology: Topology): ApiNode | undefined =>
  topology.nodes.find((node) => {
    const output = node.running?.output() ?? ""
    return output.lastIndexOf("became the background-jobs leader") > output.lastIndexOf("lost the background-jobs")
  })

/** Waits up to 30 s for a leader other than `old` (Patroni notices a crash within its loop, about a second). */
const newLeader = (topology: Topology, old: string | undefined) =>
  waitUntil(
    "no new leader",
    async () => {
      const leader = await topology.leader()
      return leader !== undefined && leader.name !== old
    },
    30_000
  ).catch(() => undefined)

const killNode = async (node: ApiNode) => {
  const running = node.running
  if (running === undefined) throw new Error(`${node.name} is not running`)
  running.child.kill("SIGKILL")
  await running.exited
}

export const primaryKilled: Scenario = {
  name: "the primary's postmaster killed (kill -9), Patroni promotes the synchronous standby",
  recoveryGoalMs: 15_000,
  inject: async (topology) => {
    const at = Date.now()
    const old = await topology.killPrimary()
    return {
      at,
      recover: async () => {
        await newLeader(topology, old.name)
        const leader = await topology.leader()
        return [
          check(
            "the standby was promoted",
            leader !== undefined && leader.name !== old.name,
            `leader: ${leader?.name}`
          ),
          await clusterWhole(topology)
        ]
      }
    }
  }
}

const switchover: Scenario = {
  name: "a planned switchover to the standby",
  recoveryGoalMs: 15_000,
  inject: async (topology) => {
    const old = await topology.leader()
    const at = Date.now()
    await topology.switchover()
    return {
      at,
      recover: async () => {
        await newLeader(topology, old?.name)
        const leader = await topology.leader()
        return [
          check("the standby leads", leader !== undefined && leader.name !== old?.name, `leader: ${leader?.name}`),
          await clusterWhole(topology)
        ]
      }
    }
  }
}

const apiNodeKilled: Scenario = {
  name: "an API node killed (kill -9) and started again",
  recoveryGoalMs: 5_000,
  inject: async (topology) => {
    const leader = jobsLeader(topology)
    const node = topology.nodes.find((candidate) => candidate !== leader) ?? topology.nodes[0]
    if (node === undefined) throw new Error("no API node")
    const at = Date.now()
    await killNode(node)
    return {
      at,
      recover: async () => {
        await sleep(3_000)
        await topology.startNode(node)
        return [await nodesReady(topology)]
      }
    }
  }
}

const workerNodeKilled: Scenario = {
  name: "the node running the background jobs killed (kill -9), another takes them over",
  recoveryGoalMs: 5_000,
  inject: async (topology) => {
    const leader = jobsLeader(topology)
    if (leader === undefined) throw new Error("no node says it runs the background jobs")
    const at = Date.now()
    await killNode(leader)
    return {
      at,
      recover: async () => {
        let successor: ApiNode | undefined
        await waitUntil(
          "no successor",
          () => {
            successor = jobsLeader(topology)
            return successor !== undefined && successor !== leader
          },
          30_000
        ).catch(() => undefined)
        const tookOver = Date.now() - at
        await topology.startNode(leader)
        return [
          check(
            "another node took the background jobs over",
            successor !== undefined && successor !== leader,
            successor === undefined ? "none within 30 s" : `${successor.name} within ${tookOver} ms`
          ),
          await nodesReady(topology)
        ]
      }
    }
  }
}

const poolerRestarted: Scenario = {
  name: "PgBouncer restarted (every connection through it dropped)",
  recoveryGoalMs: 10_000,
  inject: async (topology) => {
    const at = Date.now()
    await topology.restartPooler()
    return { at, recover: async () => [await nodesReady(topology)] }
  }
}

const nodePartitioned: Scenario = {
  name: "an API node cut off from the database for 10 s, then healed",
  recoveryGoalMs: 5_000,
  inject: async (topology) => {
    const node = topology.nodes[0]
    if (node === undefined) throw new Error("no API node")
    const at = Date.now()
    topology.partition(node)
    return {
      at,
      recover: async () => {
        await sleep(10_000)
        topology.heal(node)
        return [await nodesReady(topology)]
      }
    }
  }
}

/** Every scenario, in the order the suite runs them. */
export const SCENARIOS: ReadonlyArray<Scenario> = [
  primaryKilled,
  switchover,
  apiNodeKilled,
  workerNodeKilled,
  poolerRestarted,
  nodePartitioned
]

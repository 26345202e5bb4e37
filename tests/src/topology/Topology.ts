import { execFileSync } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type Pooler, startPgbouncer } from "../support/Pgbouncer.ts"
import {
  accepts,
  type Daemon,
  daemonPort,
  handToPostgres,
  type Running,
  startApi,
  startDaemon,
  waitUntil
} from "../support/Processes.ts"
import { startTcpProxy } from "../support/TcpProxy.ts"

/**
 * The production topology on one machine, from the files in deploy/: etcd, two Patroni-managed Postgres nodes (a
 * primary and a synchronous standby), HAProxy (writes to the Patroni leader, clients to the API nodes), PgBouncer in
 * transaction mode in front of HAProxy's write port, and API nodes. Each API node reaches the database through links
 * of its own (TCP proxies), so one node can be cut off from the database while the others carry on.
 */
const DEPLOY = new URL("../../../deploy/", import.meta.url).pathname
const POSTGRES_BIN = "/usr/lib/postgresql"

/** The Postgres superuser's password inside the topology (scram-sha-256, as deploy/patroni/patroni.yml requires). */
const PASSWORD = "topology-superuser"

/**
 * A way from an API node to a database port: through a TCP proxy of the suite's that can be cut (a partition) and
 * healed, or, without one, the port itself (the sizing runs, where the proxy's own CPU would be measured too).
 */
interface Link {
  readonly port: number
  readonly proxy: Awaited<ReturnType<typeof startTcpProxy>> | undefined
}

const link = async (target: number, cuttable: boolean): Promise<Link> => {
  if (!cuttable) return { port: target, proxy: undefined }
  const port = await daemonPort()
  return { port, proxy: await startTcpProxy(port, { host: "127.0.0.1", port: target }) }
}

const proxyOf = (link: Link) => {
  if (link.proxy === undefined) throw new Error("this topology was started without links that can be cut")
  return link.proxy
}

export interface ApiNode {
  readonly name: string
  readonly port: number
  /** The node's way to PgBouncer, and its direct way to the leader (for its background-jobs lock). */
  readonly toPooler: Link
  readonly toLeader: Link
  /** Its link to HAProxy's read port (the synchronous standby), its `DATABASE_READ_URL`. */
  readonly toReader: Link
  running: Running | undefined
}

interface PostgresNode {
  readonly name: string
  readonly port: number
  readonly restPort: number
  readonly dataDir: string
  daemon: Daemon
}

/** What Patroni says of a member (GET /cluster). */
interface Member {
  readonly name: string
  readonly role: string
  readonly state: string
}

const newestPostgresBin = () => {
  const versions = execFileSync("ls", [POSTGRES_BIN], { encoding: "utf8" }).split("\n").filter(Boolean)
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0]
  if (newest === undefined) throw new Error(`no Postgres under ${POSTGRES_BIN}`)
  return join(POSTGRES_BIN, newest, "bin")
}

/** `KEY=value` lines of an environment file (deploy/etcd/etcd.env), without comments. */
const environmentFile = (path: string): Record<string, string> =>
  Object.fromEntries(
    readFileSync(path, "utf8")
      .split("\n")
      .filter((line) => /^[A-Z0-9_]+=/.test(line))
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)])
  )

const getJson = async (url: string): Promise<unknown> => {
  const response = await fetch(url, { signal: AbortSignal.timeout(2_000) })
  return response.json()
}

const statusOf = (url: string): Promise<number> =>
  fetch(url, { signal: AbortSignal.timeout(1_000) }).then(
    async (response) => {
      await response.body?.cancel()
      return response.status
    },
    () => 0
  )

interface TopologyOptions {
  readonly apiNodes: number
  readonly apiEnv: Record<string, string>
  /** Whether each node reaches the database through links the suite can cut (default true). */
  readonly links?: boolean
}

/** Starts every part in `dir`, pushing how to stop each onto `stops` as it starts. */
const bringUp = async (options: TopologyOptions, dir: string, stops: Array<() => Promise<void>>) => {
  const logs = join(dir, "logs")
  mkdirSync(logs)
  handToPostgres(logs)
  const log = (name: string) => join(logs, `${name}.log`)

  // etcd: the deployment's environment file, on free loopback ports and a data directory of this run.
  const etcdClient = await daemonPort()
  const etcdPeer = await daemonPort()
  const etcd = startDaemon("etcd", "etcd", [], {
    log: log("etcd"),
    env: {
      ...environmentFile(join(DEPLOY, "etcd/etcd.env")),
      ETCD_DATA_DIR: join(dir, "etcd"),
      ETCD_LISTEN_CLIENT_URLS: `http://127.0.0.1:${etcdClient}`,
      ETCD_ADVERTISE_CLIENT_URLS: `http://127.0.0.1:${etcdClient}`,
      ETCD_LISTEN_PEER_URLS: `http://127.0.0.1:${etcdPeer}`,
      ETCD_INITIAL_ADVERTISE_PEER_URLS: `http://127.0.0.1:${etcdPeer}`,
      ETCD_INITIAL_CLUSTER: `etcd-1=http://127.0.0.1:${etcdPeer}`
    }
  })
  stops.push(() => etcd.stop())
  await waitUntil("etcd did not listen", () => accepts(etcdClient), 20_000)

  // Two Postgres nodes under Patroni, one file for both (deploy/patroni/patroni.yml), what differs in the environment.
  const bin = newestPostgresBin()
  const startPatroni = (node: Omit<PostgresNode, "daemon">) =>
    startDaemon(`patroni ${node.name}`, "patroni", [join(DEPLOY, "patroni/patroni.yml")], {
      log: log(node.name),
      asPostgres: true,
      env: {
        PATRONI_NAME: node.name,
        PATRONI_RESTAPI_LISTEN: `127.0.0.1:${node.restPort}`,
        PATRONI_RESTAPI_CONNECT_ADDRESS: `127.0.0.1:${node.restPort}`,
        PATRONI_POSTGRESQL_LISTEN: `127.0.0.1:${node.port}`,
        PATRONI_POSTGRESQL_CONNECT_ADDRESS: `127.0.0.1:${node.port}`,
        PATRONI_POSTGRESQL_DATA_DIR: node.dataDir,
        PATRONI_POSTGRESQL_BIN_DIR: bin,
        PATRONI_POSTGRESQL_PGPASS: join(dir, `${node.name}.pgpass`),
        PATRONI_ETCD3_HOSTS: `127.0.0.1:${etcdClient}`,
        PATRONI_SUPERUSER_PASSWORD: PASSWORD,
        PATRONI_REPLICATION_PASSWORD: "topology-replication",
        PATRONI_REWIND_PASSWORD: "topology-rewind"
      }
    })
  const postgres: Array<PostgresNode> = []
  for (const name of ["pg-1", "pg-2"]) {
    const node = { name, port: await daemonPort(), restPort: await daemonPort(), dataDir: join(dir, name) }
    postgres.push({ ...node, daemon: startPatroni(node) })
    // The first node bootstraps the cluster; the second clones it once the first leads.
    if (name === "pg-1")
      await waitUntil(
        "pg-1 did not become the leader",
        async () => (await statusOf(`http://127.0.0.1:${node.restPort}/primary`)) === 200,
        60_000
      )
  }
  stops.push(async () => {
    await Promise.all(postgres.map((node) => node.daemon.stop()))
    // Patroni stops its Postgres on SIGTERM; a Postgres left behind (pkill answers 1 when there is none) dies here.
    for (const node of postgres) {
      try {
        execFileSync("pkill", ["-9", "-f", node.dataDir])
      } catch {}
    }
  })

  const cluster = async (): Promise<ReadonlyArray<Member>> => {
    for (const node of postgres) {
      try {
        const body = (await getJson(`http://127.0.0.1:${node.restPort}/cluster`)) as { members: Array<Member> }
        return body.members
      } catch {}
    }
    return []
  }
  /** Both nodes run, one leads and the other is its synchronous standby. */
  const healthy = async () => {
    const members = await cluster()
    return (
      members.length === 2 &&
      members.every((member) => member.state === "running" || member.state === "streaming") &&
      members.some((member) => member.role === "leader") &&
      members.some((member) => member.role === "sync_standby")
    )
  }
  await waitUntil("the cluster did not reach a leader and a synchronous standby", healthy, 90_000)

  // HAProxy: the deployment's file, addresses from the environment.
  const pgWrite = await daemonPort()
  const pgRead = await daemonPort()
  const apiPort = await daemonPort()
  const stats = await daemonPort()
  const apiPorts: Array<number> = []
  for (let i = 1; i <= options.apiNodes; i++) apiPorts.push(await daemonPort())
  const haproxy = startDaemon("haproxy", "haproxy", ["-db", "-f", join(DEPLOY, "haproxy/haproxy.cfg")], {
    log: log("haproxy"),
    env: {
      HAPROXY_ERRORS: join(DEPLOY, "haproxy/errors"),
      PG_WRITE_BIND: `127.0.0.1:${pgWrite}`,
      PG_READ_BIND: `127.0.0.1:${pgRead}`,
      PG1_ADDR: `127.0.0.1:${postgres[0]?.port}`,
      PG1_REST_PORT: String(postgres[0]?.restPort),
      PG2_ADDR: `127.0.0.1:${postgres[1]?.port}`,
      PG2_REST_PORT: String(postgres[1]?.restPort),
      API_BIND: `127.0.0.1:${apiPort}`,
      STATS_BIND: `127.0.0.1:${stats}`,
      ...Object.fromEntries(apiPorts.map((port, i) => [`API${i + 1}_ADDR`, `127.0.0.1:${port}`]))
    }
  })
  stops.push(() => haproxy.stop())
  await waitUntil("HAProxy did not listen", () => accepts(pgWrite), 10_000)

  // PgBouncer in transaction mode in front of HAProxy's write port, as deploy/pgbouncer/pgbouncer.ini says.
  let pooler: Pooler = await startPgbouncer({
    dir,
    server: { host: "127.0.0.1", port: pgWrite },
    users: `"postgres" "${PASSWORD}"\n`,
    settings: {}
  })
  stops.push(() => pooler.daemon.stop())

  const directUrl = `postgres://postgres:${PASSWORD}@127.0.0.1:${pgWrite}/postgres`
  const startNode = async (node: ApiNode) => {
    node.running = await startApi({
      ...options.apiEnv,
      PORT: String(node.port),
      DATABASE_URL: `postgres://postgres:${PASSWORD}@127.0.0.1:${node.toPooler.port}/postgres`,
      DATABASE_POOLER: "transaction",
      DATABASE_DIRECT_URL: `postgres://postgres:${PASSWORD}@127.0.0.1:${node.toLeader.port}/postgres`,
      DATABASE_READ_URL: `postgres://postgres:${PASSWORD}@127.0.0.1:${node.toReader.port}/postgres`
    })
  }
  const nodes: Array<ApiNode> = []
  for (const [i, port] of apiPorts.entries()) {
    nodes.push({
      name: `api-${i + 1}`,
      port,
      toPooler: await link(pooler.port, options.links ?? true),
      toLeader: await link(pgWrite, options.links ?? true),
      toReader: await link(pgRead, options.links ?? true),
      running: undefined
    })
  }
  stops.push(async () => {
    for (const node of nodes) {
      node.running?.child.kill("SIGKILL")
      await Promise.all([node.toPooler.proxy?.close(), node.toLeader.proxy?.close(), node.toReader.proxy?.close()])
    }
  })
  // The first node runs the migrations alone; the others then start together.
  const [first, ...others] = nodes
  if (first !== undefined) await startNode(first)
  await Promise.all(others.map(startNode))
  const baseUrl = `http://127.0.0.1:${apiPort}`
  await waitUntil(
    "HAProxy did not see every API node ready",
    async () => (await statusOf(`${baseUrl}/health/ready`)) === 200,
    30_000
  )

  const leader = async (): Promise<PostgresNode | undefined> => {
    const name = (await cluster()).find((member) => member.role === "leader")?.name
    return postgres.find((node) => node.name === name)
  }

  return {
    dir,
    logs,
    baseUrl,
    statsUrl: `http://127.0.0.1:${stats}/`,
    /** The leader through HAProxy's write port, directly (no pooler): for checks after a scenario. */
    directUrl,
    /** HAProxy's read port (the synchronous standby, else the leader), as the API nodes read their lists there. */
    readUrl: `postgres://postgres:${PASSWORD}@127.0.0.1:${pgRead}/postgres`,
    nodes,
    postgres,
    cluster,
    healthy,
    leader,
    startNode,
    /** Kills the leader's postmaster (`kill -9`) and answers the node it was. */
    killPrimary: async () => {
      const node = await leader()
      if (node === undefined) throw new Error("no leader to kill")
      const pid = Number(readFileSync(join(node.dataDir, "postmaster.pid"), "utf8").split("\n")[0])
      process.kill(pid, "SIGKILL")
      return node
    },
    /** A planned switchover to the standby through Patroni's REST API. */
    switchover: async () => {
      const members = await cluster()
      const from = members.find((member) => member.role === "leader")
      const to = members.find((member) => member.role === "sync_standby")
      const node = postgres.find((candidate) => candidate.name === from?.name)
      if (from === undefined || to === undefined || node === undefined) throw new Error("no leader and standby")
      const response = await fetch(`http://127.0.0.1:${node.restPort}/switchover`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ leader: from.name, candidate: to.name })
      })
      if (!response.ok) throw new Error(`switchover: ${response.status} ${await response.text()}`)
    },
    /** Stops PgBouncer at once (SIGTERM: every client connection dropped) and starts it again on its port. */
    restartPooler: async () => {
      await pooler.daemon.stop("SIGTERM")
      pooler = await pooler.restart()
    },
    /** Cuts `node` off from the database (both its links), until `heal`. */
    partition: (node: ApiNode) => {
      proxyOf(node.toPooler).cut()
      proxyOf(node.toLeader).cut()
      proxyOf(node.toReader).cut()
    },
    heal: (node: ApiNode) => {
      proxyOf(node.toPooler).heal()
      proxyOf(node.toLeader).heal()
      proxyOf(node.toReader).heal()
    },
    /** Tears everything down, last started first, and removes the directory unless `keep`. */
    stop: async (keep = false) => {
      for (const stop of stops.reverse()) await stop().catch(() => undefined)
      if (!keep) rmSync(dir, { recursive: true, force: true })
    }
  }
}

/**
 * Starts the whole topology with `apiNodes` API nodes, each started with `apiEnv` added to its environment. When a
 * part does not come up, what did is stopped and the error names the folder that keeps every daemon's log.
 */
export const startTopology = async (options: TopologyOptions) => {
  const dir = mkdtempSync(join(tmpdir(), "svc-topology-"))
  handToPostgres(dir)
  const stops: Array<() => Promise<void>> = []
  try {
    return await bringUp(options, dir, stops)
  } catch (error) {
    for (const stop of stops.reverse()) await stop().catch(() => undefined)
    throw new Error(`the topology did not come up: ${String(error)} (logs in ${join(dir, "logs")})`)
  }
}

export type Topology = Awaited<ReturnType<typeof startTopology>>

/**
 * Read routing in the topology (ADR 0052): the API nodes read their lists on HAProxy's read port, the synchronous
 * standby, and a caller still reads its own writes when its next request reaches another node.
 * Plain TypeScript (no vitest): the topology orchestrator imports it.
 */
import { Effect } from "effect"
import { send, withSql } from "../faults/SpendLoad.ts"
import { sessionToken } from "../support/Session.ts"
import type { Check } from "./Invariants.ts"
import type { Topology } from "./Topology.ts"
import { METRICS_TOKEN } from "./Workload.ts"

/** Writes made on one node, each read at once on the other. */
const ROUNDS = 40

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Whether HAProxy's read port reaches a standby (a server in recovery) rather than the leader, its backup. */
const readPortOnStandby = (topology: Topology) =>
  withSql(topology.readUrl, (sql) =>
    Effect.map(
      sql<{ readonly standby: boolean }>`SELECT pg_is_in_recovery() AS standby`,
      (rows) => rows[0]?.standby === true
    )
  ).catch(() => false)

/** The leader's `synchronous_commit`: `remote_apply` is what makes the standby's reads current (deploy/patroni). */
const commitWaitsFor = (topology: Topology) =>
  withSql(topology.directUrl, (sql) =>
    Effect.map(sql<{ readonly setting: string }>`SELECT current_setting('synchronous_commit') AS setting`, (rows) =>
      String(rows[0]?.setting)
    )
  ).catch((error: unknown) => `unknown (${String(error)})`)

/** Every node's `db_replica_reads_total` by outcome, summed. */
const replicaReads = async (topology: Topology) => {
  const totals = { served: 0, fallback: 0 }
  for (const node of topology.nodes) {
    const reply = await send(`http://127.0.0.1:${node.port}`, "GET", "/metrics", { token: METRICS_TOKEN })
    for (const line of reply.text.split("\n")) {
      const match = /^db_replica_reads_total\{[^}]*outcome="([a-z_]+)"[^}]*\} ([0-9.e+]+)$/u.exec(line)
      if (match?.[1] === "served") totals.served += Number(match[2])
      if (match?.[1] === "primary_fallback") totals.fallback += Number(match[2])
    }
  }
  return totals
}

/**
 * A team owner creates a tag on the first API node and lists the tags at once on the second (which never saw the
 * owner write, so it reads the replica), `ROUNDS` times. Checks that every list showed the tag just
 * made, and that the lists were served by the synchronous standby (the read port is on a server in recovery, and the
 * nodes' replica reads grew by at least one per round without falling back to the primary). On loopback the standby
 * replays within a moment whatever the setting, so the rounds alone cannot show a lag; the leader's
 * `synchronous_commit = remote_apply`, which rules it out, is checked too.
 */
export const readYourWritesAcrossNodes = async (topology: Topology): Promise<ReadonlyArray<Check>> => {
  const [a, b] = topology.nodes
  if (a === undefined || b === undefined) return [{ name: "reads across nodes", ok: false, detail: "needs 2 nodes" }]
  const [writer, reader] = [a, b].map((node) => `http://127.0.0.1:${node.port}`) as [string, string]
  const owner = sessionToken()
  const team = await send(writer, "POST", "/teams", { token: owner, body: JSON.stringify({ name: "Reads" }) })
  if (team.status !== 201)
    return [{ name: "reads across nodes", ok: false, detail: `team: ${team.status} ${team.text}` }]
  const started = Date.now()
  while (!(await readPortOnStandby(topology)) && Date.now() - started < 15_000) await sleep(250)
  const onStandby = await readPortOnStandby(topology)
  const before = await replicaReads(topology)
  const missed: Array<string> = []
  for (let round = 0; round < ROUNDS; round++) {
    const name = `round-${round}`
    const created = await send(writer, "POST", "/tags", { token: owner, body: JSON.stringify({ name }) })
    const listed = await send(reader, "GET", "/tags", { token: owner })
    const names =
      listed.status === 200 ? (JSON.parse(listed.text).data as Array<{ name: string }>).map((t) => t.name) : []
    if (created.status !== 201 || !names.includes(name))
      missed.push(`${name}: POST ${created.status}, GET ${listed.status}`)
  }
  const after = await replicaReads(topology)
  const commit = await commitWaitsFor(topology)
  const served = after.served - before.served
  const fellBack = after.fallback - before.fallback
  return [
    {
      name: "a write made on one API node is in the list read at once on the other",
      ok: missed.length === 0,
      detail: missed.length === 0 ? `${ROUNDS} of ${ROUNDS} rounds` : missed.slice(0, 3).join("; ")
    },
    {
      name: "a commit is acknowledged once the standby applied it",
      ok: commit === "remote_apply",
      detail: `synchronous_commit = ${commit}`
    },
    {
      name: "the lists were read on the synchronous standby",
      ok: onStandby && served >= ROUNDS && fellBack === 0,
      detail: `read port on a standby: ${onStandby}; replica reads ${served}, fallbacks to the primary ${fellBack}`
    }
  ]
}

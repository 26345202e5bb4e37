import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { databaseEnv, freePort, type Running, startApi } from "../support/ApiProcess.ts"
import { startTcpProxy } from "../support/TcpProxy.ts"
import { type Check, checkInvariants } from "./Invariants.ts"
import {
  API_ENV,
  firstSuccessAfter,
  type Op,
  type Prepared,
  prepareWorkload,
  startWorkload,
  type WorkloadReport,
  type WorkloadTarget
} from "./Workload.ts"

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const portOf = (server: Running) => Number(new URL(server.baseUrl).port)
const named = (checks: ReadonlyArray<Check>, name: string) => {
  const found = checks.find((c) => c.name === name)
  if (found === undefined) throw new Error(`no check named ${name}`)
  return found
}

describe.skipIf(process.env.DATABASE_URL === undefined)(
  "the topology workload and its invariants (needs real Postgres: set DATABASE_URL)",
  () => {
    let database: Awaited<ReturnType<typeof databaseEnv>> | undefined
    const servers: Array<Running> = []
    let run:
      | { readonly target: WorkloadTarget; readonly prepared: Prepared; readonly report: WorkloadReport }
      | undefined

    beforeAll(async () => {
      database = await databaseEnv()
    }, 60_000)
    afterAll(async () => {
      for (const server of servers) if (server.child.exitCode === null) server.child.kill("SIGKILL")
      await database?.release()
    })

    it("an API process killed -9 under the load and replaced behind one address: every invariant holds", async () => {
      const env: Record<string, string> = { ...database?.env, ...API_ENV }
      const start = async () => {
        const server = await startApi(env)
        servers.push(server)
        return server
      }
      const first = await start()
      let upstream = portOf(first)
      const port = await freePort()
      const proxy = await startTcpProxy(port, () => ({ host: "127.0.0.1", port: upstream }))
      try {
        const target = { baseUrl: `http://127.0.0.1:${port}`, databaseUrl: env.DATABASE_URL as string }
        const prepared = await prepareWorkload(target, {
          cards: 4,
          spendPolicy: { dailyBudget: 40_000, approvalThreshold: 2_000, perRequestLimit: 10_000 }
        })
        const running = startWorkload(prepared, target)
        await sleep(1_500)
        const killedAt = Date.now()
        first.child.kill("SIGKILL")
        assert.deepStrictEqual(await first.exited, { code: null, signal: "SIGKILL" })
        const second = await start()
        upstream = portOf(second)
        await sleep(1_500)
        const report = await running.stop()
        run = { target, prepared, report }

        const checks = await checkInvariants(target.databaseUrl, prepared, report)
        console.log(
          `prepared in ${prepared.preparedInMs} ms; ${report.ops.length} operations in ${report.stoppedAt - report.startedAt} ms; ` +
            `first 2xx ${firstSuccessAfter(report, killedAt)} ms after the kill\n` +
            checks.map((c) => `${c.ok ? "ok  " : "FAIL"} ${c.name}: ${c.detail}`).join("\n")
        )
        const attempts = report.ops.flatMap((op) => op.calls.flatMap((call) => call.attempts))
        assert.isAbove(attempts.filter((a) => a.status === 0).length, 0, "the kill cut requests off mid-flight")
        assert.isDefined(firstSuccessAfter(report, killedAt), "the load went on on the new process")
        const finals = (kind: Op["kind"], read: (op: Op) => unknown) =>
          new Set(report.ops.filter((op) => op.kind === kind).map(read))
        const spends = finals("spend", (op) => op.calls[0]?.answer?.status)
        for (const status of ["approved", "pending_approval", "denied"]) assert.isTrue(spends.has(status), status)
        const transfers = finals("transfer", (op) => op.calls.at(-1)?.answer?.status)
        for (const status of ["completed", "declined", "denied"]) assert.isTrue(transfers.has(status), status)
        const authorizations = finals("authorization", (op) => op.calls[0]?.answer?.approve_response)
        for (const answer of ["APPROVED", "DECLINED"]) assert.isTrue(authorizations.has(answer), answer)

        assert.deepStrictEqual(
          checks.filter((c) => !c.ok),
          []
        )
      } finally {
        await proxy.close()
      }
    }, 60_000)

    it("the checks fail on an acknowledged operation the database lacks and on answers a client must not see", async () => {
      if (run === undefined) throw new Error("the load did not run")
      const forged: Op = {
        kind: "spend",
        key: `topology-spend-${crypto.randomUUID()}`,
        target: 0,
        amount: 300,
        resolution: null,
        startedAt: Date.now(),
        finishedAt: Date.now(),
        calls: [
          {
            name: "spend",
            idempotencyKey: "forged",
            attempts: [
              { at: Date.now(), ms: 5, status: 500, retryAfter: null, error: "internal_error" },
              { at: Date.now(), ms: 5, status: 503, retryAfter: null, error: "service_unavailable" },
              { at: Date.now(), ms: 5, status: 201, retryAfter: null, error: null }
            ],
            answer: { id: crypto.randomUUID(), status: "approved" }
          }
        ]
      }
      const checks = await checkInvariants(run.target.databaseUrl, run.prepared, {
        ...run.report,
        ops: [...run.report.ops, forged]
      })
      const stored = named(checks, "every acknowledged operation is stored exactly once")
      assert.isFalse(stored.ok)
      assert.include(stored.detail, forged.key)
      const answers = named(checks, "clients saw only 2xx, no answer, or 429/503 with Retry-After")
      assert.isFalse(answers.ok)
      assert.include(answers.detail, "500: 1")
      assert.include(answers.detail, "503 without Retry-After: 1")
      assert.isTrue(named(checks, "the ledger sums to zero per currency and matches the balances").ok)
    }, 30_000)
  }
)

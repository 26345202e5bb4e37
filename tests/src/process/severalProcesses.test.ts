import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { clientForUrl } from "@svc/adapters-pg"
import { Effect, ManagedRuntime, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { apiProcesses, type Running, startApi } from "../support/ApiProcess.ts"
import { sessionToken } from "../support/Session.ts"

const BUDGET = 10_000
const AMOUNT = 1_000
const KEYS = 20

const workerPids = (output: string) => [
  ...new Set([...output.matchAll(/listening on .* \(pid (\d+)\)/gu)].map((m) => Number(m[1])))
]

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** Polls the process output until `count` workers have announced themselves. */
const workersListening = async (server: Running, count: number) => {
  const deadline = Date.now() + 60_000
  while (workerPids(server.output()).length < count) {
    if (Date.now() > deadline) throw new Error(`${count} workers did not listen:\n${server.output()}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  return workerPids(server.output())
}

describe.skipIf(process.env.DATABASE_URL === undefined)("WEB_CONCURRENCY=2 on one Postgres database", () => {
  const processes = apiProcesses()
  let server: Running
  let sql: ManagedRuntime.ManagedRuntime<SqlClient.SqlClient, unknown>
  const count = (query: string) =>
    sql.runPromise(
      SqlClient.SqlClient.use((client) =>
        client.unsafe<{ n: string }>(query).pipe(Effect.map(([row]) => Number(row?.n)))
      )
    )

  beforeAll(async () => {
    sql = ManagedRuntime.make(clientForUrl(Redacted.make(processes.env().DATABASE_URL ?? ""), 1))
    server = await processes.start({ WEB_CONCURRENCY: "2", DB_POOL_SIZE: "4" })
  }, 120_000)

  afterAll(async () => {
    // The primary first, or it would restart the workers killed next.
    server?.child.kill("SIGKILL")
    for (const pid of workerPids(server?.output() ?? "")) if (isAlive(pid)) process.kill(pid, "SIGKILL")
    await sql?.dispose()
  })

  const call = async (method: string, path: string, token: string, body?: unknown, key?: string) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` }
    if (body !== undefined) headers["content-type"] = "application/json"
    if (key !== undefined) headers["idempotency-key"] = key
    const response = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    return { status: response.status, body: await response.json() }
  }

  it("two workers serve concurrent duplicate spend requests: one request per key, no overspend, a balanced ledger", async () => {
    const pids = await workersListening(server, 2)
    assert.strictEqual(pids.length, 2)
    assert.notInclude(pids, server.child.pid)
    assert.isTrue(pids.every(isAlive))
    assert.include(server.output(), "2 HTTP workers; the background-jobs leader among them runs the jobs")
    await server.printed("became the background-jobs leader")
    assert.strictEqual(
      server.output().split("became the background-jobs leader").length - 1,
      1,
      "the workers elect one of them to run the background jobs"
    )

    const owner = sessionToken({ email: "owner@cluster.test" })
    assert.strictEqual((await call("POST", "/teams", owner, { name: "Cluster" })).status, 201)
    const key = await call("POST", "/treasury/spending-keys", owner, {
      name: "agent",
      mode: "test",
      policy: { dailyBudget: BUDGET }
    })
    assert.strictEqual(key.status, 201)
    const agent: string = key.body.secret
    const deposit = await call("POST", "/v1/test-helpers/deposits", agent, { amount: 100_000, currency: "USD" })
    assert.strictEqual(deposit.status, 201)

    const body = { amount: AMOUNT, currency: "USD", merchant: { name: "OpenAI" }, purpose: "tokens" }
    const keys = Array.from({ length: KEYS }, () => crypto.randomUUID())
    const answers = await Promise.all(
      [...keys, ...keys].map(async (k) => ({ key: k, ...(await call("POST", "/v1/spend-requests", agent, body, k)) }))
    )
    const created = new Map<string, string>()
    for (const answer of answers) {
      assert.include([201, 409], answer.status, JSON.stringify(answer.body))
      if (answer.status === 409) {
        assert.strictEqual(answer.body.error, "idempotency_key_in_use")
        continue
      }
      const id: string = answer.body.id
      assert.strictEqual(created.get(answer.key) ?? id, id, "a replay answers the same spend request")
      created.set(answer.key, id)
    }
    assert.strictEqual(created.size, KEYS, "every key got its spend request")
    assert.strictEqual(await count("SELECT count(*)::text AS n FROM spend_requests"), KEYS)
    assert.strictEqual(
      await count("SELECT coalesce(sum(amount), 0)::text AS n FROM spend_requests WHERE status = 'approved'"),
      BUDGET,
      "approved up to the daily budget, never over"
    )
    assert.strictEqual(await count("SELECT count(*)::text AS n FROM spend_requests WHERE status = 'denied'"), KEYS - 10)
    assert.strictEqual(
      await count(
        "SELECT count(*)::text AS n FROM (SELECT transaction_id FROM ledger_entries GROUP BY transaction_id, pending HAVING sum(amount) <> 0) AS unbalanced"
      ),
      0,
      "the entries of every transaction sum to zero"
    )
    assert.strictEqual(
      await count(
        "SELECT count(*)::text AS n FROM ledger_accounts a WHERE a.posted_sum <> (SELECT coalesce(sum(e.amount), 0) FROM ledger_entries e WHERE e.account_id = a.id AND NOT e.pending)"
      ),
      0,
      "every account's posted sum is the sum of its posted entries"
    )
    assert.isTrue(pids.every(isAlive), "both workers still serve")
  }, 120_000)

  it("warns once about each unset setting the workers must share, from the primary, not once per worker", () => {
    const output = server.output()
    const times = (text: string) => output.split(text).length - 1
    assert.strictEqual(times("CARD_NUMBER_KEY is unset"), 1, output)
    assert.strictEqual(times("INTEGRATION_SECRETS_KEY is unset"), 1, output)
    assert.strictEqual(times("SESSION_JWT_SECRET is unset"), 0, "the test sets it")
  })

  it("restarts a worker that dies, and on SIGTERM drains every worker and exits 0", async () => {
    const [first, second] = await workersListening(server, 2)
    process.kill(second ?? 0, "SIGKILL")
    await server.printed(`(pid ${second}) exited (SIGKILL); restarting it`)
    const [, , replacement] = await workersListening(server, 3)
    assert.isDefined(replacement)
    assert.isTrue(isAlive(replacement ?? 0) && isAlive(first ?? 0))
    assert.strictEqual((await fetch(`${server.baseUrl}/health`)).status, 200)

    server.child.kill("SIGTERM")
    const exit = await server.exited
    assert.deepStrictEqual(exit, { code: 0, signal: null }, server.output())
    assert.include(server.output(), "all workers stopped")
    assert.isFalse(isAlive(first ?? 0) || isAlive(replacement ?? 0), "no worker outlives the primary")
  }, 120_000)
})

describe("WEB_CONCURRENCY without DATABASE_URL", () => {
  it("refuses to start: processes cannot share the embedded database", async () => {
    const refused = await startApi({ WEB_CONCURRENCY: "2" }, "listening").then(
      () => new Error("started"),
      (error: Error) => error
    )
    assert.match(refused.message, /exited with 1 before listening/u)
    assert.include(refused.message, "WEB_CONCURRENCY=2 needs DATABASE_URL")
  }, 60_000)
})

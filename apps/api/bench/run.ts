/**
 * Measures the service against its own database at 32 connections: auto-approved spend requests spread over many
 * agents (each with its own account) and concentrated on one hot account, idempotent replays and balance reads; and,
 * for each spend shape, the same database work issued directly over SQL at the same concurrency, so the service's
 * overhead shows as a ratio. Needs a Postgres server (DATABASE_URL, default the local one).
 */

import { type ChildProcess, spawn } from "node:child_process"
import { createServer } from "node:net"
import { PgClient } from "@effect/sql-pg"
import { clientForUrl } from "@svc/adapters-pg"
import autocannon from "autocannon"
import { Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { SignJWT } from "jose"
import { withCpu } from "./cpu.ts"

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32)
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const POOL_SIZE = Number(process.env.DB_POOL_SIZE ?? 10)
const AGENTS = Number(process.env.BENCH_AGENTS ?? 32)
const serverUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres"
const secret = "bench-session-secret"

interface Figures {
  readonly name: string
  readonly requestsPerSecond: number
  readonly p50: number
  readonly p99: number
  readonly failures: number
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
    })
  })

const withDatabase = (url: string, name: string) => {
  const parsed = new URL(url)
  parsed.pathname = `/${name}`
  return parsed.toString()
}

const admin = <A>(url: string, f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      return yield* f(sql)
    }).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })), Effect.scoped)
  )

const waitForReady = async (base: string) => {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${base}/health/ready`)).ok) return
    } catch {}
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error("the service did not become ready")
}

const json = async (base: string, method: string, path: string, token: string, body?: unknown) => {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      "idempotency-key": crypto.randomUUID()
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`)
  return response.json() as Promise<Record<string, unknown>>
}

let turn = 0

/** The next of `count` agents in turn: service and direct-SQL scenarios spread requests over agents alike. */
const nextTurn = (count: number) => {
  turn = (turn + 1) % count
  return turn
}

const load = (
  name: string,
  options: {
    readonly url: string
    readonly method: "GET" | "POST"
    readonly headers: Record<string, string>
    readonly body?: string
    /** Bearer tokens used in turn, one per request. */
    readonly rotate?: ReadonlyArray<string>
  }
) =>
  new Promise<Figures>((resolve, reject) => {
    autocannon(
      {
        url: options.url,
        method: options.method,
        headers: options.headers,
        ...(options.body === undefined ? {} : { body: options.body }),
        connections: CONNECTIONS,
        duration: DURATION_SECONDS,
        idReplacement: true,
        ...(options.rotate === undefined
          ? {}
          : {
              requests: [
                {
                  setupRequest: (request: autocannon.Request) => {
                    const tokens = options.rotate ?? []
                    return {
                      ...request,
                      headers: { ...request.headers, authorization: `Bearer ${tokens[nextTurn(tokens.length)]}` }
                    }
                  }
                }
              ]
            })
      },
      (error, result) => {
        if (error) return reject(error)
        resolve({
          name,
          requestsPerSecond: result.requests.average,
          p50: result.latency.p50,
          p99: result.latency.p99,
          failures: result.non2xx + result.errors + result.timeouts
        })
      }
    )
  })

/** The statements one auto-approved spend request runs, issued directly, in one transaction per iteration. */
interface AgentIds {
  readonly teamId: string
  readonly keyId: string
  readonly accountId: string
  readonly settlementId: string
}

const directSql = (name: string, url: string, agents: ReadonlyArray<AgentIds>) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const latencies: Array<number> = []
      const deadline = Date.now() + DURATION_SECONDS * 1000
      const one = (ids: AgentIds) =>
        Effect.gen(function* () {
          const started = performance.now()
          const id = crypto.randomUUID()
          const txId = crypto.randomUUID()
          const now = new Date().toISOString()
          const scope = sql`team_id = ${ids.teamId} AND mode = 'test' AND credential_id = ${ids.keyId}
            AND method = 'POST' AND path = '/v1/spend-requests' AND key = ${id}`
          yield* sql`INSERT INTO rate_limit_buckets AS b (key, tokens, allowed, updated_at)
                     VALUES (${ids.keyId}, 1e9, true, clock_timestamp())
                     ON CONFLICT (key) DO UPDATE SET tokens = b.tokens - 1, allowed = true, updated_at = clock_timestamp()
                     RETURNING tokens, allowed`
          yield* sql`SELECT * FROM agent_keys WHERE secret_hash = ${id} AND revoked_at IS NULL`
          yield* sql`SELECT fingerprint FROM idempotency_responses WHERE ${scope}`
          yield* sql.withTransaction(
            Effect.gen(function* () {
              yield* sql`SELECT pg_try_advisory_xact_lock(hashtextextended(${id}, 0))`
              yield* sql`SELECT * FROM lock_spend_decision(${ids.teamId}, 'test', ${ids.accountId}::uuid, ${ids.keyId},
                           date_trunc('day', ${now}::timestamptz), date_trunc('month', ${now}::timestamptz))`
              yield* sql`WITH ledger_tx AS (
                           INSERT INTO ledger_transactions (id, team_id, mode, kind, code, reference, created_at)
                           VALUES (${txId}, ${ids.teamId}, 'test', 'posted', 'spend_request', ${id}, ${now}) RETURNING id
                         ), ledger_inserted AS (
                           INSERT INTO ledger_entries (transaction_id, team_id, mode, account_id, amount, currency, pending)
                           SELECT ledger_tx.id, ${ids.teamId}, 'test', a, amount, 'USD', false FROM ledger_tx,
                             (VALUES (${ids.accountId}::uuid, -1), (${ids.settlementId}::uuid, 1)) AS v(a, amount)
                           RETURNING account_id, amount
                         ), ledger_moved AS (
                           UPDATE ledger_accounts l SET posted_sum = l.posted_sum + e.amount
                           FROM ledger_inserted e WHERE l.id = e.account_id
                         ), spend_request AS (
                           INSERT INTO spend_requests (id, team_id, mode, status, amount, currency, merchant, purpose, account_id,
                             spending_key_id, metadata, decision, ledger_transaction_id, created_at, updated_at)
                           VALUES (${id}, ${ids.teamId}, 'test', 'approved', 1, 'USD', '{"name":"m"}'::jsonb, 'p', ${ids.accountId},
                             ${ids.keyId}, '{}'::jsonb, '{"outcome":"approved","reasons":[]}'::jsonb, ${txId}, ${now}, ${now})
                         ), spend_usage_moved AS (
                           INSERT INTO spend_usage AS u (spending_key_id, period, period_start, amount)
                           VALUES (${ids.keyId}, 'day', date_trunc('day', ${now}::timestamptz), 1),
                                  (${ids.keyId}, 'month', date_trunc('month', ${now}::timestamptz), 1)
                           ON CONFLICT (spending_key_id, period, period_start) DO UPDATE SET amount = u.amount + EXCLUDED.amount
                         ), outbox AS (
                           INSERT INTO outbox_events (id, team_id, mode, type, data, created_at)
                           VALUES (${crypto.randomUUID()}, ${ids.teamId}, 'test', 'spend_request.created', '{}'::jsonb, ${now}),
                                  (${crypto.randomUUID()}, ${ids.teamId}, 'test', 'spend_request.approved', '{}'::jsonb, ${now})
                         )
                         SELECT 1`
              yield* sql`INSERT INTO idempotency_responses (team_id, mode, credential_id, method, path, key, fingerprint, status, headers, body, created_at)
                         VALUES (${ids.teamId}, 'test', ${ids.keyId}, 'POST', '/v1/spend-requests', ${id}, ${id}, 201, '{}'::jsonb, ${new Uint8Array(600)}, ${now})
                         ON CONFLICT DO NOTHING RETURNING 1 AS stored`
            })
          )
          latencies.push(performance.now() - started)
        })
      const worker = Effect.whileLoop({
        while: () => Date.now() < deadline,
        body: () => Effect.suspend(() => one(agents[nextTurn(agents.length)]!)),
        step: () => undefined
      })
      yield* Effect.all(
        Array.from({ length: CONNECTIONS }, () => worker),
        { concurrency: "unbounded", discard: true }
      )
      latencies.sort((a, b) => a - b)
      const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0
      return {
        name,
        requestsPerSecond: latencies.length / DURATION_SECONDS,
        p50: Math.round(at(0.5) * 100) / 100,
        p99: Math.round(at(0.99) * 100) / 100,
        failures: 0
      } satisfies Figures
    }).pipe(Effect.provide(clientForUrl(Redacted.make(url), POOL_SIZE)), Effect.scoped)
  )

const main = async () => {
  const database = `svc_bench_${Date.now()}`
  await admin(serverUrl, (sql) => sql.unsafe(`CREATE DATABASE ${database}`))
  const url = withDatabase(serverUrl, database)
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  let child: ChildProcess | undefined
  try {
    child = spawn(
      process.execPath,
      [...(process.env.BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? []), "apps/api/src/main.ts"],
      {
        env: {
          ...process.env,
          DATABASE_URL: url,
          PORT: String(port),
          HOST: "127.0.0.1",
          SESSION_JWT_SECRET: secret,
          RATE_LIMIT_V1_PER_MINUTE: "100000000",
          DB_POOL_SIZE: String(POOL_SIZE)
        },
        stdio: ["ignore", "ignore", "inherit"]
      }
    )
    await waitForReady(base)
    const session = await new SignJWT({ email: "bench@example.com" })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(crypto.randomUUID())
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode(secret))
    const agents: Array<AgentIds & { readonly secret: string }> = []
    for (let i = 0; i < AGENTS; i++) {
      const team = await json(base, "POST", "/teams", session, { name: `Bench ${i}` })
      const key = await json(base, "POST", "/treasury/spending-keys", session, {
        name: "bench",
        mode: "test",
        policy: {}
      })
      await json(base, "POST", "/v1/test-helpers/deposits", key.secret as string, {
        amount: 1_000_000_000_000,
        currency: "USD"
      })
      const accounts = (await json(base, "GET", "/treasury/accounts", session)).data as Array<Record<string, string>>
      agents.push({
        teamId: team.id as string,
        keyId: key.id as string,
        accountId: key.accountId as string,
        settlementId: accounts.find((a) => a.mode === "test" && a.kind === "settlement")?.id ?? "",
        secret: key.secret as string
      })
    }
    const hot = agents[0]!
    const headers = { authorization: `Bearer ${hot.secret}`, "content-type": "application/json" }
    const body = JSON.stringify({
      amount: 1,
      currency: "USD",
      merchant: { name: "Bench", category: "software" },
      purpose: "benchmark"
    })
    const replayKey = crypto.randomUUID()
    await fetch(`${base}/v1/spend-requests`, {
      method: "POST",
      headers: { ...headers, "idempotency-key": replayKey },
      body
    })

    const results: Array<Figures & { readonly cpu: Awaited<ReturnType<typeof withCpu>>["cpu"] }> = []
    const measure = async (run: () => Promise<Figures>) => {
      const { result, cpu } = await withCpu(child?.pid, run)
      results.push({ ...result, cpu })
    }
    const spendRequest = { url: `${base}/v1/spend-requests`, method: "POST" as const, body }
    await measure(() =>
      load(`POST /v1/spend-requests, ${AGENTS} agents (auto-approved)`, {
        ...spendRequest,
        headers: { ...headers, "idempotency-key": "[<id>]" },
        rotate: agents.map((a) => a.secret)
      })
    )
    await measure(() => directSql(`direct SQL of one spend request, ${AGENTS} accounts`, url, agents))
    await measure(() =>
      load("POST /v1/spend-requests, 1 hot account (auto-approved)", {
        ...spendRequest,
        headers: { ...headers, "idempotency-key": "[<id>]" }
      })
    )
    await measure(() => directSql("direct SQL of one spend request, 1 hot account", url, [hot]))
    await measure(() =>
      load("POST /v1/spend-requests (idempotent replay)", {
        ...spendRequest,
        headers: { ...headers, "idempotency-key": replayKey }
      })
    )
    await measure(() => load("GET /v1/balance", { url: `${base}/v1/balance`, method: "GET", headers }))
    console.log(
      `\n${CONNECTIONS} connections, ${DURATION_SECONDS} s each, pool ${POOL_SIZE}, ${serverUrl.replace(/\/\/[^@]*@/u, "//")}`
    )
    console.table(
      results.map((r) => ({
        scenario: r.name,
        "req/s": Math.round(r.requestsPerSecond),
        "p50 ms": r.p50,
        "p99 ms": r.p99,
        "non-2xx/errors": r.failures,
        "CPU % service/postgres/bench": r.cpu === undefined ? "-" : `${r.cpu.service}/${r.cpu.postgres}/${r.cpu.bench}`
      }))
    )
    const ratio = (service: Figures, direct: Figures) =>
      (service.requestsPerSecond / direct.requestsPerSecond).toFixed(2)
    console.log(`service / direct SQL throughput, ${AGENTS} agents: ${ratio(results[0]!, results[1]!)}`)
    console.log(`service / direct SQL throughput, 1 hot account: ${ratio(results[2]!, results[3]!)}`)
  } finally {
    child?.kill("SIGTERM")
    await new Promise((r) => setTimeout(r, 1500))
    await admin(serverUrl, (sql) => sql.unsafe(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`))
  }
}

await main()

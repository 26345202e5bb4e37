/**
 * Measures the service against its own database at 32 connections: auto-approved spend requests spread over many
 * agents (each with its own account) and concentrated on one hot account, idempotent replays, balance reads and the
 * health probe (the floor under every request); and, for each spend shape, the same database work issued directly
 * over SQL at the same concurrency, one transaction per request and group-committed in batches (ADR 0007), so the
 * service's overhead shows as ratios. Then spend requests at fixed arrival rates below the measured maximum (an open
 * loop), for latency at a given load. Last, card authorizations on the auth-stream against approved checkout intents:
 * as fast as they answer (closed loop) and at the issuer's pace (open loop, `BENCH_AUTH_RATE`, 200/s by default).
 * Needs a Postgres server (DATABASE_URL, default the local one).
 */

import { type ChildProcess, spawn } from "node:child_process"
import type { CardAuthorizationRequest } from "@svc/domain"
import autocannon from "autocannon"
import { SignJWT } from "jose"
import { authorizationRequest, CARD_ISSUING_SECRET, prepareCards } from "./authStream.ts"
import { batchedSql } from "./batchedSql.ts"
import { withCpu } from "./cpu.ts"
import { type AgentIds, directSql, nextTurn } from "./directSql.ts"
import type { Figures } from "./figures.ts"
import { inProcessAuthorizations } from "./inProcessAuth.ts"
import { httpPoster, openLoop, SLOW_MS } from "./openLoop.ts"
import { pgbenchAuthorizations } from "./pgbenchAuth.ts"
import { pgbenchSpendRequests } from "./pgbenchSpend.ts"
import { residentKb, withPeakRss } from "./rss.ts"
import { freePort, onDatabase, serverUrl, serviceArguments, waitForReady, withDatabase } from "./service.ts"
import { AGENTS, AUTH_CARDS, AUTH_RATE, CONNECTIONS, DURATION_SECONDS, POOL_SIZE, SCENARIOS } from "./settings.ts"

/** Arrival rates of the open-loop scenarios, as shares of the closed loop's throughput. */
const OPEN_LOOP_SHARES = [0.25, 0.5, 0.75]
const secret = "bench-session-secret"

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

const load = (
  name: string,
  options: {
    readonly url: string
    readonly method: "GET" | "POST"
    readonly headers: Record<string, string>
    readonly body?: string
    /** What each request changes of the headers and body (the next agent's token, a signed body). */
    readonly next?: () => { readonly headers: Record<string, string>; readonly body?: string }
    /** How many requests to send; a fixed duration when absent. */
    readonly amount?: number
  }
) =>
  new Promise<Figures>((resolve, reject) => {
    const next = options.next
    autocannon(
      {
        url: options.url,
        method: options.method,
        headers: options.headers,
        ...(options.body === undefined ? {} : { body: options.body }),
        connections: CONNECTIONS,
        ...(options.amount === undefined ? { duration: DURATION_SECONDS } : { amount: options.amount }),
        idReplacement: true,
        ...(next === undefined
          ? {}
          : {
              requests: [
                {
                  setupRequest: (request: autocannon.Request) => {
                    const changes = next()
                    return {
                      ...request,
                      headers: { ...request.headers, ...changes.headers },
                      ...(changes.body === undefined ? {} : { body: changes.body })
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

/**
 * The service's CPU time per request of a scenario, in ms: its CPU seconds while the scenario ran (and the second
 * after) over the requests answered. Only meaningful where the service answered the requests ("-" for the SQL-only
 * scenarios, where it idles).
 */
const serviceCpuPerRequest = (row: {
  readonly name: string
  readonly requestsPerSecond: number
  readonly cpu: { readonly serviceSeconds: number } | undefined
}) =>
  row.cpu === undefined || /^(direct SQL|pgbench)/u.test(row.name) || row.requestsPerSecond === 0
    ? "-"
    : ((row.cpu.serviceSeconds * 1000) / (row.requestsPerSecond * DURATION_SECONDS)).toFixed(2)

/** `openLoop` of POSTs to `url` at `ratePerSecond` for the bench's duration. */
const httpOpenLoop = async (
  name: string,
  url: string,
  next: () => { readonly headers: Record<string, string>; readonly body: string },
  ratePerSecond: number
) => {
  const poster = httpPoster(url, next)
  try {
    return await openLoop(name, { attempt: poster.post, ratePerSecond, seconds: DURATION_SECONDS })
  } finally {
    poster.close()
  }
}

const main = async () => {
  const database = `svc_bench_${Date.now()}`
  await onDatabase(serverUrl, (sql) => sql.unsafe(`CREATE DATABASE ${database}`))
  const url = withDatabase(serverUrl, database)
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  let child: ChildProcess | undefined
  try {
    child = spawn(
      process.execPath,
      [...(process.env.BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? []), ...serviceArguments()],
      {
        env: {
          ...process.env,
          DATABASE_URL: url,
          PORT: String(port),
          HOST: "127.0.0.1",
          SESSION_JWT_SECRET: secret,
          RATE_LIMIT_V1_PER_MINUTE: "100000000",
          DB_POOL_SIZE: String(POOL_SIZE),
          WEBHOOK_SECRET_CARD_ISSUING_A: CARD_ISSUING_SECRET
        },
        stdio: ["ignore", "ignore", "inherit"]
      }
    )
    await waitForReady(base)
    const startRssMb = child.pid === undefined ? undefined : Math.round(residentKb(child.pid) / 1024)
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

    type Row = Figures & {
      readonly slowPercent?: number
      readonly cpu: Awaited<ReturnType<typeof withCpu>>["cpu"]
      readonly peakRssMb: number | undefined
    }
    const results: Array<Row> = []
    const measure = async <F extends Figures>(run: () => Promise<F>) => {
      const {
        result: { result, cpu },
        peakRssMb
      } = await withPeakRss(child?.pid, () => withCpu(child?.pid, run))
      results.push({ ...result, cpu, peakRssMb })
      return result
    }
    const spendScenarios = async () => {
      const spendRequest = { url: `${base}/v1/spend-requests`, method: "POST" as const, body }
      const spread = await measure(() =>
        load(`POST /v1/spend-requests, ${AGENTS} agents (auto-approved)`, {
          ...spendRequest,
          headers: { ...headers, "idempotency-key": "[<id>]" },
          next: () => ({ headers: { authorization: `Bearer ${agents[nextTurn(agents.length)]?.secret}` } })
        })
      )
      const spreadPgbench = await measure(() =>
        pgbenchSpendRequests(
          `pgbench: the least SQL of one spend request, ${AGENTS} accounts`,
          url,
          agents,
          CONNECTIONS,
          DURATION_SECONDS
        )
      )
      const spreadDirect = await measure(() =>
        directSql(`direct SQL of one spend request, ${AGENTS} accounts`, url, agents)
      )
      const spreadBatched = await measure(() =>
        batchedSql(`direct SQL, group-committed batches, ${AGENTS} accounts`, url, agents)
      )
      const hotService = await measure(() =>
        load("POST /v1/spend-requests, 1 hot account (auto-approved)", {
          ...spendRequest,
          headers: { ...headers, "idempotency-key": "[<id>]" }
        })
      )
      const hotDirect = await measure(() => directSql("direct SQL of one spend request, 1 hot account", url, [hot]))
      const hotBatched = await measure(() =>
        batchedSql("direct SQL, group-committed batches, 1 hot account", url, [hot])
      )
      await measure(() =>
        load("POST /v1/spend-requests (idempotent replay)", {
          ...spendRequest,
          headers: { ...headers, "idempotency-key": replayKey }
        })
      )
      await measure(() => load("GET /v1/balance", { url: `${base}/v1/balance`, method: "GET", headers }))
      // The floor under every request: HTTP, the router and the global middleware, no credential and no statement.
      await measure(() =>
        load("GET /health (no credential, no database)", { url: `${base}/health`, method: "GET", headers: {} })
      )
      for (const share of OPEN_LOOP_SHARES) {
        const ratePerSecond = Math.max(1, Math.round(spread.requestsPerSecond * share))
        await measure(() =>
          httpOpenLoop(
            `POST /v1/spend-requests, ${AGENTS} agents, open loop at ${share * 100}% of max (${ratePerSecond}/s)`,
            spendRequest.url,
            () => ({
              headers: {
                authorization: `Bearer ${agents[nextTurn(agents.length)]!.secret}`,
                "content-type": "application/json",
                "idempotency-key": crypto.randomUUID()
              },
              body
            }),
            ratePerSecond
          )
        )
      }
      return () => {
        const ratio = (service: Figures, reference: Figures) =>
          (service.requestsPerSecond / reference.requestsPerSecond).toFixed(2)
        console.log(
          `service / pgbench's least spend SQL throughput, ${AGENTS} agents: ${ratio(spread, spreadPgbench)} ` +
            `(${Math.round(spread.requestsPerSecond)} req/s against ${Math.round(spreadPgbench.requestsPerSecond)} tps)`
        )
        console.log(`service / direct SQL throughput, ${AGENTS} agents: ${ratio(spread, spreadDirect)}`)
        console.log(`service / direct SQL throughput, 1 hot account: ${ratio(hotService, hotDirect)}`)
        console.log(`service / group-committed SQL throughput, ${AGENTS} agents: ${ratio(spread, spreadBatched)}`)
        console.log(`service / group-committed SQL throughput, 1 hot account: ${ratio(hotService, hotBatched)}`)
      }
    }
    const spendRatios = SCENARIOS.has("spend") ? await spendScenarios() : undefined
    const authStreamScenarios = async () => {
      const cardsFor = (count: number) =>
        prepareCards(
          base,
          agents.map((a) => a.secret),
          count,
          async () =>
            new Map(
              (
                await onDatabase(
                  url,
                  (sql) => sql<{ readonly id: string; readonly token: string }>`
                  SELECT id::text AS id, token FROM checkout_cards`
                )
              ).map((card) => [card.id, card.token])
            )
        )
      const authStream = `${base}/webhook/card-issuing-a/auth-stream`
      const closedCards = await cardsFor(AUTH_CARDS)
      let closedTurn = 0
      await measure(() =>
        load(`POST auth-stream, approved intents, ${AGENTS} agents (closed loop, ${AUTH_CARDS} authorizations)`, {
          url: authStream,
          method: "POST",
          headers: { "content-type": "application/json" },
          amount: closedCards.length,
          next: () => authorizationRequest(closedCards[closedTurn++ % closedCards.length]!)
        })
      )
      // Signed before the clock starts, so that the load generator's own work does not show as the service's latency.
      const openRequests = (await cardsFor(AUTH_RATE * DURATION_SECONDS)).map(authorizationRequest)
      let openTurn = 0
      const service = await measure(() =>
        httpOpenLoop(
          `POST auth-stream, approved intents, open loop at ${AUTH_RATE}/s`,
          authStream,
          () => openRequests[openTurn++ % openRequests.length]!,
          AUTH_RATE
        )
      )
      const inProcessRequests = (await cardsFor(AUTH_RATE * DURATION_SECONDS + 1))
        .map(authorizationRequest)
        .map((r) => JSON.parse(r.body) as CardAuthorizationRequest)
      await measure(() =>
        inProcessAuthorizations(
          `the same decision in the bench process (no HTTP), open loop at ${AUTH_RATE}/s`,
          url,
          inProcessRequests,
          AUTH_RATE
        )
      )
      const answers = await onDatabase(
        url,
        (sql) => sql<{ readonly status: string; readonly reason: string | null; readonly count: number }>`
          SELECT status, decline_reason AS reason, count(*)::int AS count FROM card_authorizations GROUP BY 1, 2`
      )
      const database = await measure(() =>
        pgbenchAuthorizations(
          `pgbench: an authorization's two statements, open loop at ${AUTH_RATE}/s`,
          url,
          AUTH_RATE,
          DURATION_SECONDS
        )
      )
      const approved = answers.find((a) => a.status === "approved")?.count ?? 0
      console.log(
        `auth-stream answers: ${approved} approved of ${AUTH_CARDS + 2 * AUTH_RATE * DURATION_SECONDS + 1} sent`,
        answers.filter((a) => a.status !== "approved")
      )
      return () =>
        console.log(
          `auth-stream open loop at ${AUTH_RATE}/s against pgbench at that rate: p50 ${service.p50} ms against ` +
            `${database.p50} ms, p99 ${service.p99} ms against ${database.p99} ms (${(service.p99 / database.p99).toFixed(1)}x)`
        )
    }
    const authStreamComparison = SCENARIOS.has("auth-stream") ? await authStreamScenarios() : undefined
    console.log(
      `\n${CONNECTIONS} connections (closed loop), ${DURATION_SECONDS} s each, pool ${POOL_SIZE}, ${serverUrl.replace(/\/\/[^@]*@/u, "//")}`
    )
    console.table(
      results.map((r) => ({
        scenario: r.name,
        "req/s": Math.round(r.requestsPerSecond),
        "p50 ms": r.p50,
        "p99 ms": r.p99,
        [`> ${SLOW_MS} ms %`]: r.slowPercent ?? "-",
        "non-2xx/errors": r.failures,
        "CPU % service/postgres/bench": r.cpu === undefined ? "-" : `${r.cpu.service}/${r.cpu.postgres}/${r.cpu.bench}`,
        "service CPU ms/request": serviceCpuPerRequest(r),
        "service peak RSS MB": r.peakRssMb ?? "-"
      }))
    )
    console.log(`service RSS just after start: ${startRssMb ?? "-"} MB`)
    spendRatios?.()
    authStreamComparison?.()
  } finally {
    child?.kill("SIGTERM")
    await new Promise((r) => setTimeout(r, 1500))
    await onDatabase(serverUrl, (sql) => sql.unsafe(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`))
  }
}

await main()

/**
 * Business-finance speed: seeds one team with BENCH_FINANCE_ROWS transactions (default 1,000,000) over the three years
 * before the current month, by bulk SQL (generate_series, in batches), then measures p50/p99 of each report for a
 * 12-month range over the HTTP API, and of the first page of GET /transactions with a text filter when the service
 * serves that route. Needs a Postgres server (DATABASE_URL, default the local one); creates and drops its own database.
 */

import { type ChildProcess, spawn } from "node:child_process"
import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import { SignJWT } from "jose"
import { freePort, onDatabase, serverUrl, serviceArguments, waitForReady, withDatabase } from "./service.ts"

const ROWS = Number(process.env.BENCH_FINANCE_ROWS ?? 1_000_000)
const SAMPLES = Number(process.env.BENCH_FINANCE_SAMPLES ?? 100)
const BATCH = 100_000
const secret = "bench-session-secret"
/**
 * One batch of transactions of the team: dates spread over the 36 months before the current one, a category for 9 in
 * 10 (drawn from the team's), a tenth in EUR with a USD base amount, some recurring, pending, internal or excluded,
 * names from a small vocabulary so a text filter matches a realistic share.
 */
const seedBatch = (sql: SqlClient.SqlClient, teamId: string, offset: number, count: number) => sql`
  WITH cats AS (SELECT array_agg(id ORDER BY slug) AS ids FROM transaction_categories WHERE team_id = ${teamId}),
  span AS (SELECT (date_trunc('month', now()) - interval '36 months')::date AS first_day,
                  (date_trunc('month', now()) - interval '1 day')::date AS last_day)
  INSERT INTO transactions (id, team_id, date, name, amount_minor, currency, base_amount_minor, base_currency, status,
                            internal, recurring, manual, category_id, tax_rate, counterparty_name, updated_at)
  SELECT gen_random_uuid(), ${teamId},
         span.first_day + (hashint % (span.last_day - span.first_day + 1)),
         (ARRAY['Office rent', 'Cloud hosting', 'Client invoice', 'Coffee beans', 'Payroll', 'Ads campaign',
                'Subscription', 'Refund'])[1 + i % 8] || ' ' || i,
         CASE WHEN i % 3 = 0 THEN 1 + hashint % 500000 ELSE -(1 + hashint % 200000) END,
         CASE WHEN i % 10 = 0 THEN 'EUR' ELSE 'USD' END,
         CASE WHEN i % 10 = 0 THEN (CASE WHEN i % 3 = 0 THEN 1 ELSE -1 END) * (1 + hashint % 220000) END,
         CASE WHEN i % 10 = 0 THEN 'USD' END,
         (ARRAY['posted', 'posted', 'completed', 'pending', 'archived', 'posted', 'excluded', 'posted'])[1 + i % 8],
         i % 50 = 0, i % 7 = 0, true,
         CASE WHEN i % 10 = 9 THEN NULL ELSE cats.ids[1 + i % array_length(cats.ids, 1)] END,
         CASE WHEN i % 4 = 0 THEN 20 END,
         'Counterparty ' || (i % 1000), now()
  FROM generate_series(${offset}, ${offset + count - 1}) AS i,
       LATERAL (SELECT abs(hashtext(i::text)) AS hashint) h, cats, span`

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0

const measure = async (base: string, path: string, token: string) => {
  const get = async () => {
    const started = performance.now()
    const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } })
    await response.arrayBuffer()
    return { ms: performance.now() - started, status: response.status }
  }
  for (let i = 0; i < 5; i++) await get()
  const times: Array<number> = []
  let status = 0
  for (let i = 0; i < SAMPLES; i++) {
    const answer = await get()
    status = answer.status
    times.push(answer.ms)
  }
  const sorted = times.toSorted((a, b) => a - b)
  return { status, p50: percentile(sorted, 50), p99: percentile(sorted, 99) }
}

const main = async () => {
  const database = `svc_bench_finance_${Date.now()}`
  await onDatabase(serverUrl, (sql) => sql.unsafe(`CREATE DATABASE ${database}`))
  const url = withDatabase(serverUrl, database)
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  let child: ChildProcess | undefined
  try {
    child = spawn(process.execPath, [...serviceArguments()], {
      env: { ...process.env, DATABASE_URL: url, PORT: String(port), HOST: "127.0.0.1", SESSION_JWT_SECRET: secret },
      stdio: ["ignore", "ignore", "inherit"]
    })
    await waitForReady(base)
    const token = await new SignJWT({ email: "bench@example.com" })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(crypto.randomUUID())
      .setExpirationTime("2h")
      .sign(new TextEncoder().encode(secret))
    const created = await fetch(`${base}/teams`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Bench finance" })
    })
    const team = (await created.json()) as { id: string }

    const seedStarted = performance.now()
    await onDatabase(url, (sql) =>
      Effect.gen(function* () {
        for (let offset = 0; offset < ROWS; offset += BATCH) {
          yield* seedBatch(sql, team.id, offset, Math.min(BATCH, ROWS - offset))
        }
        yield* sql`VACUUM ANALYZE transactions`
        yield* sql`VACUUM ANALYZE transaction_month_totals`
      })
    )
    console.log(`seeded ${ROWS} transactions in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`)

    const now = new Date()
    const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0))
    const first = new Date(Date.UTC(last.getUTCFullYear(), last.getUTCMonth() - 11, 1))
    const range = `from=${first.toISOString().slice(0, 10)}&to=${last.toISOString().slice(0, 10)}`
    const paths = [
      `/reports/revenue?${range}`,
      `/reports/revenue?${range}&revenueType=net`,
      `/reports/profit?${range}`,
      `/reports/burn-rate?${range}`,
      `/reports/runway?${range}`,
      `/reports/expenses?${range}`,
      `/reports/spending?${range}`,
      // fin-a2's route: measured when the service serves it, reported as not served otherwise
      "/transactions?q=coffee&limit=20"
    ]
    console.log(`${SAMPLES} sequential requests each after 5 warm-up ones, 12 months (${range})`)
    for (const path of paths) {
      const { status, p50, p99 } = await measure(base, path, token)
      const verdict = status === 200 ? `p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms` : `not served (${status})`
      console.log(`GET ${path.split("?")[0]}${path.includes("revenueType") ? " (net)" : ""}: ${verdict}`)
    }
  } finally {
    child?.kill("SIGTERM")
    await new Promise((r) => setTimeout(r, 500))
    await onDatabase(serverUrl, (sql) => sql.unsafe(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)).catch(
      () => undefined
    )
  }
}

await main()

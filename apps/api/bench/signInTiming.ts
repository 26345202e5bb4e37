/**
 * Whether `POST /auth/sign-in-links` answers a known address as fast as an unknown one (ADR 0044): starts the service
 * on a database of its own (MAIL_OUTBOX_DIR in a temp directory, so mail costs what the file mailer costs), provisions
 * BENCH_SIGN_IN_USERS known users (default 200), then asks for a link for each known address and as many unknown ones,
 * interleaved in a shuffled order, one request at a time, each from its own client address (X-Forwarded-For from the
 * trusted loopback peer) so no per-client limit is reached. Prints the latency distribution of each kind and the share
 * of known-address answers slower than the unknown ones' 90th percentile (about 10% when the two are alike). Prints,
 * asserts nothing. Needs a Postgres server (DATABASE_URL, default the local one).
 */

import { type ChildProcess, spawn } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { SignJWT } from "jose"
import { quantiles } from "./figures.ts"
import { freePort, onDatabase, serverUrl, serviceArguments, waitForReady, withDatabase } from "./service.ts"

const USERS = Number(process.env.BENCH_SIGN_IN_USERS ?? 200)
const secret = "bench-session-secret"

/** The milliseconds one link request takes from `client`, answered 202. */
const ask = async (base: string, email: string, client: string) => {
  const started = performance.now()
  const response = await fetch(`${base}/auth/sign-in-links`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": client },
    body: JSON.stringify({ email })
  })
  await response.arrayBuffer()
  const ms = performance.now() - started
  if (response.status !== 202) throw new Error(`POST /auth/sign-in-links: ${response.status}`)
  return ms
}

const describe = (name: string, latencies: Array<number>) => {
  const at = quantiles(latencies)
  return `${name}: p10 ${at(0.1)} ms, p50 ${at(0.5)} ms, p90 ${at(0.9)} ms, p99 ${at(0.99)} ms`
}

const main = async () => {
  const database = `svc_bench_sign_in_${Date.now()}`
  await onDatabase(serverUrl, (sql) => sql.unsafe(`CREATE DATABASE ${database}`))
  const outbox = await mkdtemp(join(tmpdir(), "svc-bench-mail-"))
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  let child: ChildProcess | undefined
  try {
    child = spawn(process.execPath, [...serviceArguments()], {
      env: {
        ...process.env,
        DATABASE_URL: withDatabase(serverUrl, database),
        PORT: String(port),
        HOST: "127.0.0.1",
        SESSION_JWT_SECRET: secret,
        TRUST_PROXY: "127.0.0.1",
        MAIL_OUTBOX_DIR: outbox
      },
      stdio: ["ignore", "ignore", "inherit"]
    })
    await waitForReady(base)
    const known: Array<string> = []
    for (let i = 0; i < USERS; i++) {
      const email = `known-${i}-${crypto.randomUUID()}@example.com`
      const token = await new SignJWT({ email })
        .setProtectedHeader({ alg: "HS256" })
        .setSubject(crypto.randomUUID())
        .setExpirationTime("1h")
        .sign(new TextEncoder().encode(secret))
      const me = await fetch(`${base}/users/me`, { headers: { authorization: `Bearer ${token}` } })
      if (me.status !== 200) throw new Error(`GET /users/me: ${me.status}`)
      known.push(email)
    }
    const requests = [
      ...known.map((email) => ({ kind: "known" as const, email })),
      ...known.map(() => ({ kind: "unknown" as const, email: `unknown-${crypto.randomUUID()}@example.com` }))
    ].toSorted(() => Math.random() - 0.5)
    for (let i = 0; i < 20; i++) await ask(base, `warm-up-${i}@example.com`, `192.0.2.${i}`)

    const latencies = { known: [] as Array<number>, unknown: [] as Array<number> }
    let client = 0
    for (const request of requests) {
      client += 1
      const address = `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client & 255}`
      latencies[request.kind].push(await ask(base, request.email, address))
    }
    const unknownP90 = quantiles([...latencies.unknown])(0.9)
    const above = latencies.known.filter((ms) => ms > unknownP90).length
    console.log(`${USERS} known and ${USERS} unknown addresses, shuffled, one request at a time`)
    console.log(describe("known  ", latencies.known))
    console.log(describe("unknown", latencies.unknown))
    console.log(
      `known answers above the unknown p90: ${above} of ${USERS} (${((100 * above) / USERS).toFixed(1)}%; alike: about 10%)`
    )
  } finally {
    child?.kill("SIGTERM")
    await new Promise((r) => setTimeout(r, 500))
    await onDatabase(serverUrl, (sql) => sql.unsafe(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)).catch(
      () => undefined
    )
    await rm(outbox, { recursive: true, force: true })
  }
}

await main()

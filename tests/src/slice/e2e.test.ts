import { type ChildProcess, spawn } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import { request } from "node:http"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { TestDatabase, TestDatabaseUrl } from "@svc/adapters-pg/testing"
import { ApiError, createClient } from "@svc/sdk"
import { Effect, ManagedRuntime } from "effect"
import { SESSION_SECRET, sessionToken } from "../support/Session.ts"

const ROOT = fileURLToPath(new URL("../../../", import.meta.url))

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address()
      probe.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject()))
    })
  })

/** The database for the server process: a fresh one on DATABASE_URL's server, else an embedded one in a temp dir. */
const databaseEnv = async () => {
  if (process.env.DATABASE_URL === undefined) {
    const dir = await mkdtemp(join(tmpdir(), "svc-e2e-"))
    return { env: { PGLITE_DATA_DIR: dir }, release: () => rm(dir, { recursive: true, force: true }) }
  }
  const runtime = ManagedRuntime.make(TestDatabase)
  const { url } = await runtime.runPromise(
    Effect.gen(function* () {
      return yield* TestDatabaseUrl
    })
  )
  return { env: { DATABASE_URL: url }, release: () => runtime.dispose() }
}

interface Running {
  readonly child: ChildProcess
  readonly baseUrl: string
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  readonly output: () => string
  /** Resolves once the process has printed `text` (on stdout or stderr). */
  readonly printed: (text: string) => Promise<void>
}

const start = async (env: Record<string, string>): Promise<Running> => {
  const port = await freePort()
  const { DATABASE_URL: _ignored, ...inherited } = process.env
  const child = spawn(process.execPath, ["apps/api/src/main.ts"], {
    cwd: ROOT,
    env: { ...inherited, ...env, PORT: String(port), HOST: "127.0.0.1", SESSION_JWT_SECRET: SESSION_SECRET },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()))
  const printed = (text: string) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (!output.includes(text)) return
        child.stdout?.off("data", check)
        child.stderr?.off("data", check)
        resolve()
      }
      child.stdout?.on("data", check)
      child.stderr?.on("data", check)
      check()
    })
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal }))
  )
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 90_000)
    void printed("listening on").then(() => {
      clearTimeout(timer)
      resolve()
    })
    void exited.then(({ code }) => reject(new Error(`server exited with ${code} before listening:\n${output}`)))
  })
  return { child, baseUrl: `http://127.0.0.1:${port}`, exited, output: () => output, printed }
}

/**
 * A POST sent with `Expect: 100-continue`: `started` resolves when the server's handler starts reading the body, whose
 * first half is then sent; the second half waits for `sendRest`, so the request stays in flight while the test acts.
 */
const slowPost = (baseUrl: string, path: string, token: string, body: string) => {
  const url = new URL(path, baseUrl)
  let sendRest: () => void = () => undefined
  let started: Promise<void> = Promise.resolve()
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          expect: "100-continue"
        }
      },
      (res) => {
        let text = ""
        res.on("data", (c: Buffer) => (text += c.toString()))
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }))
      }
    )
    req.on("error", reject)
    const half = Math.floor(body.length / 2)
    started = new Promise<void>((continued) =>
      req.once("continue", () => {
        req.write(body.slice(0, half))
        continued()
      })
    )
    sendRest = () => req.end(body.slice(half))
    req.flushHeaders()
  })
  return { response, started, sendRest: () => sendRest() }
}

describe("end to end: the real server process and the SDK", () => {
  let database: Awaited<ReturnType<typeof databaseEnv>>
  let server: Running

  beforeAll(async () => {
    database = await databaseEnv()
    server = await start(database.env)
  }, 120_000)

  afterAll(async () => {
    if (server !== undefined && server.child.exitCode === null) server.child.kill("SIGKILL")
    await database?.release()
  })

  it("logs one start-up line with the address and the database in use", () => {
    const line =
      server
        .output()
        .split("\n")
        .find((l) => l.includes("listening on")) ?? ""
    assert.include(line, server.baseUrl.replace("http://", ""))
    assert.match(line, process.env.DATABASE_URL === undefined ? /embedded Postgres/u : /Postgres at /u)
    assert.notInclude(server.output(), SESSION_SECRET)
  })

  it("creates a team, reads the user and lists teams through the Promise client", async () => {
    const sub = crypto.randomUUID()
    const client = createClient({ baseUrl: server.baseUrl, token: sessionToken({ sub, email: "e2e@example.com" }) })
    assert.deepStrictEqual(await client.health(), { status: "ok" })

    const team = await client.createTeam({ name: "End to end" })
    assert.strictEqual(team.object, "team")
    assert.strictEqual(team.role, "owner")
    assert.strictEqual(team.baseCurrency, "USD")

    const me = await client.me()
    assert.strictEqual(me.id, sub)
    assert.strictEqual(me.email, "e2e@example.com")
    assert.strictEqual(me.teamId, team.id)
    assert.isString(me.fileKey)
    assert.strictEqual((await client.me()).fileKey, me.fileKey)

    const noMore = { cursor: null, hasNextPage: false, hasPreviousPage: false }
    assert.deepStrictEqual(await client.listTeams(), { data: [team], meta: noMore })
    assert.deepStrictEqual(await client.listTeams({ limit: 1 }), { data: [team], meta: noMore })
  })

  it("rejects with ApiError carrying the service's status, code and field details", async () => {
    const client = createClient({ baseUrl: server.baseUrl, token: sessionToken() })
    const invalid = await client.createTeam({ name: "Acme", extra: 1 } as never).catch((e: unknown) => e)
    assert.instanceOf(invalid, ApiError)
    assert.strictEqual(invalid.status, 0, "refused by the client before sending")
    assert.strictEqual(invalid.error, "validation_failed")
    assert.deepStrictEqual(
      invalid.details?.map((d) => d.path),
      ["extra"]
    )

    const refused = await client.listAccounts().catch((e: unknown) => e)
    assert.instanceOf(refused, ApiError)
    assert.deepStrictEqual([refused.status, refused.error], [401, "unauthorized"])

    const anonymous = createClient({ baseUrl: server.baseUrl, token: "not-a-session" })
    const unauthorized = await anonymous.me().catch((e: unknown) => e)
    assert.instanceOf(unauthorized, ApiError)
    assert.strictEqual(unauthorized.status, 401)
  })

  it("on SIGTERM finishes the request in flight, then exits 0 (a requested shutdown is not a failure)", async () => {
    const token = sessionToken()
    const inFlight = slowPost(server.baseUrl, "/teams", token, JSON.stringify({ name: "Started before SIGTERM" }))
    await inFlight.started
    server.child.kill("SIGTERM")
    await Promise.race([server.printed("shutting down"), server.exited])
    assert.strictEqual(server.child.exitCode, null, "still draining while a request is open")
    inFlight.sendRest()
    const answered = await inFlight.response
    assert.strictEqual(answered.status, 201, answered.body)
    assert.strictEqual(JSON.parse(answered.body).name, "Started before SIGTERM")
    const exit = await server.exited
    assert.deepStrictEqual(exit, { code: 0, signal: null }, server.output())
  }, 60_000)
})

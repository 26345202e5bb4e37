import { afterAll, assert, describe, it } from "@effect/vitest"
import { answers, databaseEnv, freePort, type Running, startApi } from "../support/ApiProcess.ts"
import { sessionToken } from "../support/Session.ts"
import { startTcpProxy } from "../support/TcpProxy.ts"

const PASSWORD = "pw-never-logged"

/** The test database's URL with its host and port replaced by 127.0.0.1:`port`, and a password that must not leak. */
const throughPort = (url: string, port: number) => {
  const moved = new URL(url)
  moved.hostname = "127.0.0.1"
  moved.port = String(port)
  moved.password = PASSWORD
  return moved.toString()
}

describe.skipIf(process.env.DATABASE_URL === undefined)("start-up while the database is down (Postgres)", () => {
  const cleanups: Array<() => Promise<unknown>> = []
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup()
  })
  const started = async (env: Record<string, string>) => {
    const server = await startApi(env, "listening")
    cleanups.push(async () => {
      if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGKILL")
      await server.exited
    })
    return server
  }

  it("listens at once, is alive but not ready, then serves once the database answers", async () => {
    const database = await databaseEnv()
    cleanups.push(database.release)
    const port = await freePort()
    const server: Running = await started({ DATABASE_URL: throughPort(database.env.DATABASE_URL ?? "", port) })
    await server.printed("database not ready (attempt 2)")
    assert.strictEqual((await fetch(`${server.baseUrl}/health`)).status, 200)
    const ready = await fetch(`${server.baseUrl}/health/ready`)
    assert.strictEqual(ready.status, 503)
    assert.strictEqual((await ready.json()).error, "service_unavailable")
    assert.match(server.output(), /database not ready \(attempt 1\): .*ECONNREFUSED.*; retrying/u)
    assert.strictEqual(server.child.exitCode, null)

    const target = new URL(process.env.DATABASE_URL ?? "")
    const proxy = await startTcpProxy(port, { host: target.hostname, port: Number(target.port || 5432) })
    cleanups.push(proxy.close)
    await answers(`${server.baseUrl}/health/ready`, 200, server.output)
    const created = await fetch(`${server.baseUrl}/teams`, {
      method: "POST",
      headers: { authorization: `Bearer ${sessionToken()}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "After the outage" })
    })
    assert.strictEqual(created.status, 201)
    assert.include(server.output(), "ready: the database answers and its migrations ran")
    assert.notInclude(server.output(), PASSWORD)
  }, 120_000)

  it("gives up after DATABASE_STARTUP_TIMEOUT_SECONDS and exits 1 saying why", async () => {
    const port = await freePort()
    const server = await started({
      DATABASE_URL: `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/none`,
      DATABASE_STARTUP_TIMEOUT_SECONDS: "2"
    })
    const exit = await server.exited
    assert.deepStrictEqual(exit, { code: 1, signal: null }, server.output())
    assert.include(server.output(), "the database did not answer within DATABASE_STARTUP_TIMEOUT_SECONDS (2 s)")
    assert.notInclude(server.output(), PASSWORD)
  }, 60_000)
})

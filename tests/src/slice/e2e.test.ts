import { request } from "node:http"
import { assert, beforeAll, describe, it } from "@effect/vitest"
import { ApiError, createClient } from "@svc/sdk"
import { apiProcesses, type Running } from "../support/ApiProcess.ts"
import { SESSION_SECRET, sessionToken } from "../support/Session.ts"

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
  const processes = apiProcesses()
  let server: Running

  beforeAll(async () => {
    server = await processes.start()
  }, 120_000)

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
    assert.deepStrictEqual(await client.system.health(), { status: "ok" })

    const team = await client.teams.create({ payload: { name: "End to end" } })
    assert.strictEqual(team.object, "team")
    assert.strictEqual(team.role, "owner")
    assert.strictEqual(team.baseCurrency, "USD")

    const me = await client.me.me()
    assert.strictEqual(me.id, sub)
    assert.strictEqual(me.email, "e2e@example.com")
    assert.strictEqual(me.teamId, team.id)
    assert.isString(me.fileKey)
    assert.strictEqual((await client.me.me()).fileKey, me.fileKey)

    const noMore = { cursor: null, hasNextPage: false, hasPreviousPage: false }
    assert.deepStrictEqual(await client.me.listTeams({ query: {} }), { data: [team], meta: noMore })
    assert.deepStrictEqual(await client.me.listTeams({ query: { limit: 1 } }), { data: [team], meta: noMore })
  })

  it("rejects with ApiError carrying the service's status, code and field details", async () => {
    const client = createClient({ baseUrl: server.baseUrl, token: sessionToken() })
    const invalid = await client.teams.create({ payload: { name: "Acme", extra: 1 } as never }).catch((e: unknown) => e)
    assert.instanceOf(invalid, ApiError)
    assert.strictEqual(invalid.status, 0, "refused by the client before sending")
    assert.strictEqual(invalid.error, "validation_failed")
    assert.deepStrictEqual(
      invalid.details?.map((d) => d.path),
      ["extra"]
    )

    const refused = await client.accounts.list({ query: {} }).catch((e: unknown) => e)
    assert.instanceOf(refused, ApiError)
    assert.deepStrictEqual([refused.status, refused.error], [401, "unauthorized"])

    const anonymous = createClient({ baseUrl: server.baseUrl, token: "not-a-session" })
    const unauthorized = await anonymous.me.me().catch((e: unknown) => e)
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

import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterEach, assert, describe, it } from "@effect/vitest"
import { ApiError, createClient } from "@svc/sdk"

interface Scripted {
  readonly baseUrl: string
  readonly hits: Array<{ readonly at: number; readonly authorization: string | undefined }>
  readonly server: Server
}

type Answer = { readonly status: number; readonly headers?: Record<string, string>; readonly body: object }

/** A loopback server answering each request with the next scripted answer (the last one repeats). */
const scripted = async (answers: ReadonlyArray<Answer>): Promise<Scripted> => {
  const hits: Scripted["hits"] = []
  const server = createServer((req, res) => {
    hits.push({ at: Date.now(), authorization: req.headers.authorization })
    const answer = answers[Math.min(hits.length - 1, answers.length - 1)]!
    res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers })
    res.end(JSON.stringify(answer.body))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  servers.push(server)
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits, server }
}

const servers: Array<Server> = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))))
})

const ok: Answer = { status: 200, body: { status: "ok" } }
const unavailable: Answer = {
  status: 503,
  body: { error: "service_unavailable", code: 503, message: "the database is unavailable; retry later" }
}
const fast = { initialDelayMs: 20, factor: 1.5, maxDelayMs: 100, maxElapsedMs: 1_000 }

describe("SDK retry policy against a loopback server", () => {
  it("retries a 503 twice and then resolves with the 200", async () => {
    const { baseUrl, hits } = await scripted([unavailable, unavailable, ok])
    const client = createClient({ baseUrl, token: "tok", retry: fast })
    assert.deepStrictEqual(await client.health(), { status: "ok" })
    assert.strictEqual(hits.length, 3)
    assert.isAtLeast(hits[2]!.at - hits[0]!.at, 20 + 30 - 5)
  })

  it("waits the Retry-After of a 429 before trying again", async () => {
    const limited: Answer = {
      status: 429,
      headers: { "retry-after": "1" },
      body: { error: "rate_limited", code: 429, message: "slow down" }
    }
    const { baseUrl, hits } = await scripted([limited, ok])
    const client = createClient({ baseUrl, token: "tok", retry: { ...fast, maxElapsedMs: 5_000 } })
    assert.deepStrictEqual(await client.health(), { status: "ok" })
    assert.strictEqual(hits.length, 2)
    assert.isAtLeast(hits[1]!.at - hits[0]!.at, 950)
  })

  it("sends the bearer token on every attempt", async () => {
    const empty = { data: [], meta: { cursor: null, hasNextPage: false, hasPreviousPage: false } }
    const { baseUrl, hits } = await scripted([unavailable, { status: 200, body: empty }])
    const client = createClient({ baseUrl, token: "session-token", retry: fast })
    assert.deepStrictEqual(await client.listTeams(), empty)
    assert.deepStrictEqual(
      hits.map((h) => h.authorization),
      ["Bearer session-token", "Bearer session-token"]
    )
  })

  it("never retries another 4xx and rejects with the service's error", async () => {
    const notFound: Answer = { status: 404, body: { error: "not_found", code: 404, message: "no account" } }
    const { baseUrl, hits } = await scripted([notFound, ok])
    const client = createClient({ baseUrl, token: "svc_x", retry: fast })
    const error = await client.getAccount(crypto.randomUUID()).catch((e: unknown) => e)
    assert.instanceOf(error, ApiError)
    assert.deepStrictEqual([error.status, error.error, error.message], [404, "not_found", "no account"])
    assert.strictEqual(hits.length, 1)
  })

  it("gives up within the time budget and rejects with the last 503", async () => {
    const { baseUrl, hits } = await scripted([unavailable])
    const started = Date.now()
    const client = createClient({ baseUrl, token: "tok", retry: { ...fast, maxElapsedMs: 300 } })
    const error = await client.health().catch((e: unknown) => e)
    assert.instanceOf(error, ApiError)
    assert.deepStrictEqual([error.status, error.error], [503, "service_unavailable"])
    assert.isAbove(hits.length, 2)
    assert.isBelow(Date.now() - started, 2_000)
  })

  it("retries connection failures and then rejects with connection_error", async () => {
    const { baseUrl, server } = await scripted([ok])
    await new Promise((resolve) => server.close(resolve))
    const client = createClient({ baseUrl, token: "tok", retry: { ...fast, maxElapsedMs: 200 } })
    const error = await client.health().catch((e: unknown) => e)
    assert.instanceOf(error, ApiError)
    assert.deepStrictEqual([error.status, error.error], [0, "connection_error"])
  })
})

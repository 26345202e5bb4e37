import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterEach, assert, describe, it } from "@effect/vitest"
import { ApiError, createClient } from "@svc/sdk"

interface Scripted {
  readonly baseUrl: string
  readonly hits: Array<{
    readonly at: number
    readonly authorization: string | undefined
    readonly idempotencyKey: string | undefined
  }>
  readonly server: Server
}

type Answer = { readonly status: number; readonly headers?: Record<string, string>; readonly body: object }

/** A loopback server answering each request with the next scripted answer (the last one repeats). */
const scripted = async (answers: ReadonlyArray<Answer>): Promise<Scripted> => {
  const hits: Scripted["hits"] = []
  const server = createServer((req, res) => {
    const idempotencyKey = req.headers["idempotency-key"]
    hits.push({
      at: Date.now(),
      authorization: req.headers.authorization,
      idempotencyKey: typeof idempotencyKey === "string" ? idempotencyKey : undefined
    })
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
    assert.deepStrictEqual(await client.system.health(), { status: "ok" })
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
    assert.deepStrictEqual(await client.system.health(), { status: "ok" })
    assert.strictEqual(hits.length, 2)
    assert.isAtLeast(hits[1]!.at - hits[0]!.at, 950)
  })

  it("sends the bearer token on every attempt", async () => {
    const empty = { data: [], meta: { cursor: null, hasNextPage: false, hasPreviousPage: false } }
    const { baseUrl, hits } = await scripted([unavailable, { status: 200, body: empty }])
    const client = createClient({ baseUrl, token: "session-token", retry: fast })
    assert.deepStrictEqual(await client.me.listTeams({ query: {} }), empty)
    assert.deepStrictEqual(
      hits.map((h) => h.authorization),
      ["Bearer session-token", "Bearer session-token"]
    )
  })

  it("never retries another 4xx and rejects with the service's error", async () => {
    const notFound: Answer = { status: 404, body: { error: "not_found", code: 404, message: "no account" } }
    const { baseUrl, hits } = await scripted([notFound, ok])
    const client = createClient({ baseUrl, token: "svc_x", retry: fast })
    const error = await client.accounts.get({ params: { id: crypto.randomUUID() } }).catch((e: unknown) => e)
    assert.instanceOf(error, ApiError)
    assert.deepStrictEqual([error.status, error.error, error.message], [404, "not_found", "no account"])
    assert.strictEqual(hits.length, 1)
  })

  it("gives the error the request id, rate limit and Retry-After of the last answer", async () => {
    const limited: Answer = {
      status: 429,
      headers: {
        "retry-after": "7",
        "x-request-id": "req_42",
        "ratelimit-limit": "100",
        "ratelimit-remaining": "0",
        "ratelimit-reset": "7"
      },
      body: { error: "rate_limited", code: 429, message: "slow down" }
    }
    const { baseUrl, hits } = await scripted([limited])
    const client = createClient({ baseUrl, token: "svc_x", retry: { ...fast, maxElapsedMs: 0 } })
    const error = await client.accounts.balance().catch((e: unknown) => e)
    assert.instanceOf(error, ApiError)
    assert.deepStrictEqual(
      [error.status, error.code, error.error, error.requestId, error.rateLimit, error.retryAfterSeconds],
      [429, 429, "rate_limited", "req_42", { limit: 100, remaining: 0, resetSeconds: 7 }, 7]
    )
    assert.strictEqual(hits.length, 1)
  })

  it("sends one generated Idempotency-Key on every retry of a create, and the caller's own when given", async () => {
    const created: Answer = { status: 503, body: { error: "service_unavailable", code: 503, message: "later" } }
    const { baseUrl, hits } = await scripted([created])
    const client = createClient({ baseUrl, token: "svc_x", retry: { ...fast, maxElapsedMs: 120 } })
    const payload = { amount: 100, currency: "USD", merchant: { name: "OpenAI" }, purpose: "tokens" } as const
    await client.spendRequests.create({ payload }).catch(() => undefined)
    const first = hits.splice(0).map((h) => h.idempotencyKey)
    assert.isAbove(first.length, 1)
    assert.match(first[0] ?? "", /^[0-9a-f-]{36}$/u)
    assert.deepStrictEqual(new Set(first).size, 1)
    await client.spendRequests.create({ payload }).catch(() => undefined)
    assert.notStrictEqual(hits[0]?.idempotencyKey, first[0])
    hits.splice(0)
    await client.spendRequests.create({ payload, headers: { "idempotency-key": "mine-1" } }).catch(() => undefined)
    assert.deepStrictEqual(new Set(hits.map((h) => h.idempotencyKey)), new Set(["mine-1"]))
  })

  it("gives up within the time budget and rejects with the last 503", async () => {
    const { baseUrl, hits } = await scripted([unavailable])
    const started = Date.now()
    const client = createClient({ baseUrl, token: "tok", retry: { ...fast, maxElapsedMs: 300 } })
    const error = await client.system.health().catch((e: unknown) => e)
    assert.instanceOf(error, ApiError)
    assert.deepStrictEqual([error.status, error.error], [503, "service_unavailable"])
    assert.isAbove(hits.length, 2)
    assert.isBelow(Date.now() - started, 2_000)
  })

  it("retries connection failures and then rejects with connection_error", async () => {
    const { baseUrl, server } = await scripted([ok])
    await new Promise((resolve) => server.close(resolve))
    const client = createClient({ baseUrl, token: "tok", retry: { ...fast, maxElapsedMs: 200 } })
    const error = await client.system.health().catch((e: unknown) => e)
    assert.instanceOf(error, ApiError)
    assert.deepStrictEqual([error.status, error.error], [0, "connection_error"])
  })
})

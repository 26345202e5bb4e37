import { afterAll, assert, describe, it } from "@effect/vitest"
import { inParallel, ledgerViolations, type Reply, send, spender, withSql } from "../faults/SpendLoad.ts"
import { apiProcesses, freePort } from "../support/ApiProcess.ts"
import { startTcpProxy } from "../support/TcpProxy.ts"

const RACES = 100
const PAIRS_AT_ONCE = 8
const AMOUNT = 1_000
const FUNDS = RACES * AMOUNT
/** Each way between the server and Postgres: a database across a network, as in production, not on the same host. */
const DATABASE_DELAY_MS = 2
const ENV = { RATE_LIMIT_V1_PER_MINUTE: "100000" }
const direct = process.env.DATABASE_URL

/** The server's DATABASE_URL: the test database's, through a proxy `DATABASE_DELAY_MS` away. */
const delayedDatabase = async (url: string) => {
  const target = new URL(url)
  const port = await freePort()
  const proxy = await startTcpProxy(
    port,
    { host: target.hostname, port: Number(target.port || 5432) },
    DATABASE_DELAY_MS
  )
  afterAll(proxy.close)
  const moved = new URL(url)
  moved.hostname = "127.0.0.1"
  moved.port = String(port)
  return moved.toString()
}

/** A loser's answer: 409 with the contract's body, naming the status the request now has. */
const assertLost = (reply: Reply, status: string) => {
  assert.strictEqual(reply.status, 409, reply.text)
  const body = JSON.parse(reply.text) as Record<string, unknown>
  assert.deepStrictEqual(Object.keys(body).toSorted(), ["code", "error", "message"], reply.text)
  assert.strictEqual(body.code, 409)
  assert.include(body.message as string, status)
}

describe(`cancel racing approve on spend requests, over HTTP on the real server (${direct === undefined ? "embedded PGlite: one transaction at a time" : "Postgres"})`, () => {
  const processes = apiProcesses()

  it(`${RACES} races, ${PAIRS_AT_ONCE} at a time: no 5xx, exactly one of each pair wins, the other answers 409`, async () => {
    const url = processes.env().DATABASE_URL
    const server = await processes.start(url === undefined ? ENV : { ...ENV, DATABASE_URL: await delayedDatabase(url) })
    const agent = await spender(server.baseUrl, { approvalThreshold: 1 }, FUNDS)
    const pending: Array<{ readonly id: string; readonly approvalId: string }> = []
    await inParallel(
      PAIRS_AT_ONCE,
      Array.from({ length: RACES }, (_, i) => async () => {
        const reply = await send(server.baseUrl, "POST", "/v1/spend-requests", {
          token: agent.secret,
          body: JSON.stringify({
            amount: AMOUNT,
            currency: "USD",
            merchant: { name: "OpenAI", category: "software" },
            purpose: `race ${i}`
          }),
          headers: { "idempotency-key": crypto.randomUUID() }
        })
        assert.strictEqual(reply.status, 201, reply.text)
        const created = JSON.parse(reply.text)
        assert.strictEqual(created.status, "pending_approval")
        pending.push({ id: created.id, approvalId: created.approval.id })
      })
    )

    const races: Array<{ readonly id: string; readonly cancel: Reply; readonly approve: Reply }> = []
    await inParallel(
      PAIRS_AT_ONCE,
      pending.map(({ id, approvalId }, i) => async () => {
        const [cancel, approve] = await Promise.all([
          // Every other cancel carries an idempotency key, as the SDK sends one: its work then runs in the
          // transaction that stores its answer.
          send(server.baseUrl, "POST", `/v1/spend-requests/${id}/cancel`, {
            token: agent.secret,
            ...(i % 2 === 0 ? { headers: { "idempotency-key": crypto.randomUUID() } } : {})
          }),
          send(server.baseUrl, "POST", `/treasury/approvals/${approvalId}/approve`, { token: agent.owner, body: "{}" })
        ])
        races.push({ id, cancel, approve })
      })
    )

    const failed = races.filter((r) => r.cancel.status >= 500 || r.approve.status >= 500 || r.cancel.status === 0)
    assert.deepStrictEqual(
      failed.map((r) => [r.cancel.status, r.approve.status]),
      [],
      `${failed.length} of ${RACES} races answered a 5xx or nothing`
    )
    let approved = 0
    for (const { id, cancel, approve } of races) {
      const won = cancel.status === 200 ? "canceled" : "approved"
      if (won === "canceled") assertLost(approve, "canceled")
      else {
        assert.strictEqual(approve.status, 200, approve.text)
        assertLost(cancel, "approved")
        approved += 1
      }
      const now = await send(server.baseUrl, "GET", `/v1/spend-requests/${id}`, { token: agent.secret })
      assert.strictEqual(JSON.parse(now.text).status, won, `${id} stays as its winner left it`)
    }
    const balance = JSON.parse((await send(server.baseUrl, "GET", "/v1/balance", { token: agent.secret })).text)
    assert.deepStrictEqual(
      [balance.posted, balance.pending, balance.available],
      [FUNDS - approved * AMOUNT, 0, FUNDS - approved * AMOUNT]
    )
    if (url !== undefined) assert.deepStrictEqual(await withSql(url, ledgerViolations), [])
  }, 120_000)
})

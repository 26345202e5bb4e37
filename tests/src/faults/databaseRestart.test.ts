import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { type Running, startApi } from "../support/ApiProcess.ts"
import { postgresBinaries, privatePostgres } from "../support/PrivatePostgres.ts"
import { inParallel, ledgerViolations, type Reply, send, sendSpend, spender, withSql } from "./SpendLoad.ts"

const binaries = postgresBinaries()
const INTERNALS =
  /stack|SqlError|ECONNREFUSED|SELECT |INSERT |syntax error|relation "|127\.0\.0\.1|\/work\/|node_modules/iu

/** "starting": while `pg_ctl start` runs, the database may already accept connections before pg_ctl sees it. */
type Phase = "before" | "down" | "starting" | "after"

interface Sent {
  readonly key: string
  readonly amount: number
  readonly sentIn: Phase
  readonly answeredIn: Phase
  readonly reply: Reply
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe.skipIf(binaries === undefined)(
  "the database stopped and started under load (a private cluster: skipped where no initdb and pg_ctl exist)",
  () => {
    let cluster: Awaited<ReturnType<typeof privatePostgres>> | undefined
    let server: Running | undefined

    beforeAll(async () => {
      cluster = await privatePostgres(binaries as string)
      server = await startApi({ DATABASE_URL: cluster.url, RATE_LIMIT_V1_PER_MINUTE: "100000" })
    }, 120_000)

    afterAll(async () => {
      if (server !== undefined && server.child.exitCode === null) server.child.kill("SIGKILL")
      await cluster?.remove()
    }, 60_000)

    it("answers 503 while it is down, is ready within 2 s of its return, and loses nothing acknowledged", async () => {
      const db = cluster as NonNullable<typeof cluster>
      const { baseUrl } = server as Running
      const agent = await spender(baseUrl, { approvalThreshold: 2_000 }, 1_000_000)

      let phase: Phase = "before"
      let loading = true
      const sent: Array<Sent> = []
      const worker = async (n: number) => {
        for (let i = 0; loading; i++) {
          const key = `outage-${n}-${i}-${crypto.randomUUID()}`
          const amount = [400, 2_500, 900][i % 3] as number
          const sentIn = phase
          const reply = await sendSpend(baseUrl, agent.secret, key, amount, 8_000)
          sent.push({ key, amount, sentIn, answeredIn: phase, reply })
          if (reply.status !== 201) await sleep(25)
        }
      }
      const workers = Promise.all([0, 1, 2, 3].map(worker))

      await sleep(1_500)
      await db.stopImmediately()
      phase = "down"
      await sleep(500)
      const health = await send(baseUrl, "GET", "/health", { timeoutMs: 3_000 })
      const ready = await send(baseUrl, "GET", "/health/ready", { timeoutMs: 3_000 })
      const read = await send(baseUrl, "GET", "/v1/spend-requests", { token: agent.secret, timeoutMs: 5_000 })
      await sleep(2_500)

      phase = "starting"
      await db.start()
      phase = "after"
      const upAt = performance.now()
      let readyMs = Number.POSITIVE_INFINITY
      while (performance.now() - upAt < 10_000) {
        if ((await send(baseUrl, "GET", "/health/ready", { timeoutMs: 2_000 })).status === 200) {
          readyMs = performance.now() - upAt
          break
        }
        await sleep(50)
      }
      await sleep(1_000)
      loading = false
      await workers

      assert.strictEqual(health.status, 200, "GET /health while down")
      for (const [name, reply] of [
        ["/health/ready", ready],
        ["GET /v1/spend-requests", read]
      ] as const) {
        assert.strictEqual(reply.status, 503, `${name} while down: ${reply.text}`)
        assert.strictEqual(JSON.parse(reply.text).error, "service_unavailable")
      }
      assert.isAtMost(readyMs, 2_000, "ready within 2 s of the database accepting connections")

      const outage = sent.filter((s) => s.sentIn === "down" && s.answeredIn === "down")
      assert.isAbove(outage.length, 0, "requests were sent during the outage")
      assert.deepStrictEqual(
        outage.filter((s) => s.reply.status !== 503).map((s) => `${s.reply.status} ${s.reply.text}`),
        [],
        "every answer during the outage is a 503"
      )
      const logOf = (reply: Reply) => {
        const id = reply.headers.get("x-request-id") ?? "no request id"
        const output = (server as Running).output()
        const at = output.indexOf(id)
        return at < 0 ? "" : output.slice(Math.max(0, at - 1_500), at + 1_500)
      }
      for (const { reply } of sent) {
        assert.oneOf(reply.status, [201, 503], `${reply.text}\n${logOf(reply)}`)
        assert.isAtMost(reply.ms, 6_000, "no request hangs")
        assert.notMatch(reply.text, INTERNALS)
        if (reply.status === 503) {
          assert.strictEqual(JSON.parse(reply.text).error, "service_unavailable")
          assert.strictEqual(reply.headers.get("retry-after"), "5")
        }
      }
      const acknowledged = sent.filter((s) => s.reply.status === 201)
      assert.isAbove(acknowledged.filter((s) => s.sentIn === "before").length, 0)
      assert.isAbove(acknowledged.filter((s) => s.sentIn === "after").length, 0)

      for (const s of acknowledged) {
        const first = JSON.parse(s.reply.text)
        const stored = await send(baseUrl, "GET", `/v1/spend-requests/${first.id}`, { token: agent.secret })
        assert.strictEqual(stored.status, 200, stored.text)
        assert.strictEqual(JSON.parse(stored.text).status, first.status, `${s.key} kept its status`)
        const again = await sendSpend(baseUrl, agent.secret, s.key, s.amount)
        assert.strictEqual(again.status, 201)
        assert.strictEqual(again.text, s.reply.text, `${s.key}: the resend replays the first answer`)
      }
      const refused = sent.filter((x) => x.reply.status === 503)
      const retried = new Map<string, Reply>()
      await inParallel(
        8,
        refused.map((s) => async () => {
          retried.set(s.key, await sendSpend(baseUrl, agent.secret, s.key, s.amount))
        })
      )
      for (const [key, reply] of retried) {
        assert.strictEqual(reply.status, 201, `${key}: a refused request runs when resent: ${reply.text}`)
      }
      assert.deepStrictEqual(await withSql(db.url, ledgerViolations), [])
    }, 120_000)
  }
)

import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { apiProcesses, type Running } from "../support/ApiProcess.ts"
import { inParallel, ledgerViolations, type Reply, sendSpend, spender, withSql } from "./SpendLoad.ts"

const KEYS = 50
const SENDS_PER_KEY = 4
const AMOUNTS = [300, 800, 1_500, 2_500, 4_000, 12_000]
const POLICY = { dailyBudget: 25_000, approvalThreshold: 2_000, perRequestLimit: 10_000 }
const FUNDS = 1_000_000
const ENV = { RATE_LIMIT_V1_PER_MINUTE: "100000" }

/** A deterministic shuffle (a fixed LCG), so a failing order can be replayed. */
const shuffled = <A>(items: ReadonlyArray<A>, seed: number): Array<A> => {
  const out = [...items]
  let state = seed
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31
    const j = state % (i + 1)
    ;[out[i], out[j]] = [out[j] as A, out[i] as A]
  }
  return out
}

const groupBy = <A>(items: ReadonlyArray<A>, keyOf: (a: A) => string) => {
  const groups = new Map<string, Array<A>>()
  for (const item of items) groups.set(keyOf(item), [...(groups.get(keyOf(item)) ?? []), item])
  return groups
}

interface Answer {
  readonly id: string
  readonly status: string
  readonly reasons: ReadonlyArray<string>
}

const answerOf = (reply: Reply): Answer => {
  const body = JSON.parse(reply.text)
  return { id: body.id, status: body.status, reasons: body.decision.reasons.map((r: { code: string }) => r.code) }
}

describe.skipIf(process.env.DATABASE_URL === undefined)(
  "kill -9 under load (needs real Postgres: set DATABASE_URL)",
  () => {
    const processes = apiProcesses()

    it("every key ends with one spend request, one answer, at most one movement, within budget, ledger sound", async () => {
      const keys = Array.from({ length: KEYS }, (_, i) => ({
        key: `fault-${i}-${crypto.randomUUID()}`,
        amount: AMOUNTS[i % AMOUNTS.length] as number
      }))
      const answers = new Map<string, Array<Answer>>(keys.map(({ key }) => [key, []]))
      const unexpected: Array<string> = []
      const record = (key: string, reply: Reply) => {
        if (reply.status === 201) answers.get(key)?.push(answerOf(reply))
        else if (![0, 409, 503].includes(reply.status)) unexpected.push(`${key}: ${reply.status} ${reply.text}`)
      }

      let server = await processes.start(ENV)
      const agent = await spender(server.baseUrl, POLICY, FUNDS)

      for (const [round, killAfter] of [
        [1, 40],
        [2, 60]
      ] as const) {
        const running: Running = server
        let acknowledged = 0
        let cut = 0
        const sends = shuffled(
          keys.flatMap((k) => Array.from({ length: SENDS_PER_KEY }, () => k)),
          round
        ).map(({ key, amount }) => async () => {
          const reply = await sendSpend(running.baseUrl, agent.secret, key, amount)
          record(key, reply)
          if (reply.status === 0) cut++
          if (reply.status === 201 && ++acknowledged === killAfter) running.child.kill("SIGKILL")
        })
        await inParallel(16, sends)
        assert.deepStrictEqual(await running.exited, { code: null, signal: "SIGKILL" }, `round ${round}`)
        assert.isAtLeast(acknowledged, killAfter, `round ${round}: acknowledged before the kill`)
        assert.isAbove(cut, 0, `round ${round}: the kill cut requests off mid-load`)
        server = await processes.start(ENV)
      }

      const finalServer: Running = server
      const deadline = Date.now() + 60_000
      await inParallel(
        8,
        keys.map(({ key, amount }) => async () => {
          for (;;) {
            const reply = await sendSpend(finalServer.baseUrl, agent.secret, key, amount)
            record(key, reply)
            if (reply.status === 201 || Date.now() > deadline) return
            await new Promise((resolve) => setTimeout(resolve, 100))
          }
        })
      )
      assert.deepStrictEqual(unexpected, [])

      const finals = new Map<string, Answer>()
      for (const { key } of keys) {
        const seen = answers.get(key) ?? []
        assert.isAbove(seen.length, 0, `${key} got a final answer`)
        const first = seen[0] as Answer
        for (const other of seen) assert.deepStrictEqual(other, first, `${key}: every answer agrees`)
        finals.set(key, first)
      }
      const outcomes = [...finals.values()]
      assert.isTrue(
        outcomes.some((a) => a.reasons.includes("daily_budget_exceeded")),
        "the load pushed against the budget"
      )
      assert.isTrue(outcomes.some((a) => a.status === "approved"))
      assert.isTrue(outcomes.some((a) => a.status === "pending_approval"))

      const url = processes.env().DATABASE_URL as string
      const facts = await withSql(url, (sql) =>
        Effect.all({
          requests: sql<{
            readonly id: string
            readonly purpose: string
            readonly status: string
            readonly amount: string
            readonly day: string
          }>`SELECT id, purpose, status, amount::text, date_trunc('day', created_at)::text AS day
             FROM spend_requests WHERE team_id = ${agent.teamId}`,
          movements: sql<{ readonly reference: string; readonly kind: string; readonly n: string }>`
            SELECT reference, kind, COUNT(*)::text AS n FROM ledger_transactions
            WHERE team_id = ${agent.teamId} AND code = 'spend_request' AND kind IN ('posted', 'pending')
            GROUP BY reference, kind`,
          account: sql<{ readonly postedSum: string; readonly pendingOut: string }>`
            SELECT posted_sum::text, pending_out::text FROM ledger_accounts
            WHERE team_id = ${agent.teamId} AND kind = 'spend' AND mode = 'test'`,
          violations: ledgerViolations(sql)
        })
      )

      const rowsByPurpose = groupBy(facts.requests, (r) => r.purpose)
      assert.strictEqual(facts.requests.length, KEYS, "one spend request row per key, nothing else")
      for (const { key } of keys) {
        const rows = rowsByPurpose.get(`fault ${key}`) ?? []
        assert.strictEqual(rows.length, 1, `${key}: exactly one spend request row`)
        const answer = finals.get(key) as Answer
        assert.deepStrictEqual([rows[0]?.id, rows[0]?.status], [answer.id, answer.status], `${key}: row = answer`)
      }

      const movementOf = new Map(facts.movements.map((m) => [m.reference, m]))
      assert.isTrue(
        facts.movements.every((m) => m.n === "1"),
        "at most one ledger movement per request"
      )
      assert.strictEqual(movementOf.size, facts.movements.length, "one movement kind per request")
      for (const r of facts.requests) {
        const expected = { approved: "posted", pending_approval: "pending" }[r.status]
        assert.strictEqual(movementOf.get(r.id)?.kind, expected, `request ${r.id} (${r.status})`)
      }

      const counted = facts.requests.filter((r) => r.status === "approved" || r.status === "pending_approval")
      for (const [day, rows] of groupBy(counted, (r) => r.day)) {
        const spent = rows.reduce((sum, r) => sum + Number(r.amount), 0)
        assert.isAtMost(spent, POLICY.dailyBudget, `budget on ${day}`)
      }
      const sumOf = (status: string) =>
        facts.requests.filter((r) => r.status === status).reduce((sum, r) => sum + Number(r.amount), 0)
      assert.deepStrictEqual(facts.account, [
        { postedSum: String(FUNDS - sumOf("approved")), pendingOut: String(sumOf("pending_approval")) }
      ])
      assert.deepStrictEqual(facts.violations, [])
    }, 240_000)
  }
)

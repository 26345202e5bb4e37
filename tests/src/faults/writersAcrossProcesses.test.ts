import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { apiProcesses } from "../support/ApiProcess.ts"
import { ledgerViolations, send, sendSpend, spender, withSql } from "./SpendLoad.ts"

const REQUESTS = 50
const AMOUNT = 1_000
const FUNDS = 20_000
const ENV = { RATE_LIMIT_V1_PER_MINUTE: "100000" }

describe.skipIf(process.env.DATABASE_URL === undefined)(
  "two API processes, two spend writers, one database (needs real Postgres: set DATABASE_URL)",
  () => {
    const processes = apiProcesses()

    it("50 concurrent requests of 10.00 against 200.00, split between them, approve exactly 20; nothing overdraws", async () => {
      const [one, two] = [await processes.start(ENV), await processes.start(ENV)]
      const agent = await spender(one.baseUrl, {}, FUNDS)
      const replies = await Promise.all(
        Array.from({ length: REQUESTS }, (_, i) =>
          sendSpend((i % 2 === 0 ? one : two).baseUrl, agent.secret, `across-${i}-${crypto.randomUUID()}`, AMOUNT)
        )
      )
      assert.deepStrictEqual(
        replies.map((r) => r.status),
        replies.map(() => 201)
      )
      const answers = replies.map(
        (r) =>
          JSON.parse(r.text) as {
            readonly status: string
            readonly decision: { readonly reasons: ReadonlyArray<{ readonly code: string }> }
          }
      )
      const approved = answers.filter((a) => a.status === "approved")
      const denied = answers.filter((a) => a.status === "denied")
      assert.strictEqual(approved.length, 20)
      assert.strictEqual(denied.length, 30)
      assert.isTrue(denied.every((a) => a.decision.reasons.some((r) => r.code === "insufficient_funds")))

      const balance = JSON.parse((await send(two.baseUrl, "GET", "/v1/balance", { token: agent.secret })).text)
      assert.deepStrictEqual([balance.posted, balance.pending, balance.available], [0, 0, 0])
      const facts = await withSql(processes.env().DATABASE_URL as string, (sql) =>
        Effect.all({
          requests: sql<{ readonly status: string; readonly n: string }>`
            SELECT status, COUNT(*)::text AS n FROM spend_requests WHERE team_id = ${agent.teamId}
            GROUP BY status ORDER BY status`,
          movements: sql<{ readonly n: string }>`
            SELECT COUNT(*)::text AS n FROM ledger_transactions
            WHERE team_id = ${agent.teamId} AND code = 'spend_request'`,
          violations: ledgerViolations(sql)
        })
      )
      assert.deepStrictEqual(facts.requests, [
        { status: "approved", n: "20" },
        { status: "denied", n: "30" }
      ])
      assert.deepStrictEqual(facts.movements, [{ n: "20" }])
      assert.deepStrictEqual(facts.violations, [])
    }, 180_000)
  }
)

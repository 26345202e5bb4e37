import { assert, layer } from "@effect/vitest"
import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { SpendRequests } from "@svc/domain"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { domainOver, fundedAgent, spend } from "./SpendSetup.ts"

/** The row count of every table of the schema, by table name. */
const rowCounts = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const tables = yield* sql<{ tableName: string }>`
    SELECT table_name FROM information_schema.tables
    WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`
  const counts: Record<string, number> = {}
  for (const { tableName } of tables) {
    const [row] = yield* sql<{ n: string }>`SELECT count(*)::text AS n FROM ${sql(tableName)}`
    counts[tableName] = Number(row?.n)
  }
  return counts
})

const ports = PortsPg.pipe(Layer.provideMerge(TestDatabase))

// The same ports layer as inside `domainOver` (built once), which also holds the database.
layer(domainOver(ports).pipe(Layer.provideMerge(ports)), { timeout: "60 seconds" })(
  "Spend request dry run (Postgres)",
  (it) => {
    it.effect("evaluate leaves the row count of every table as it was, whatever it answers", () =>
      Effect.gen(function* () {
        const { agent } = yield* fundedAgent({
          funds: 10_000,
          policy: {
            approvalThreshold: 500,
            dailyBudget: 5_000,
            maxRequestsPerHour: 5,
            categoryBudgets: [{ category: "travel", interval: "week", amount: 2_000 }]
          }
        })
        yield* spend(agent, 100)
        const service = yield* SpendRequests
        const before = yield* rowCounts
        assert.isAbove(before.spend_usage ?? 0, 0)
        assert.isAbove(before.spend_request_times ?? 0, 0)
        const outcomes = []
        for (const [amount, category] of [
          [100, "software"],
          [600, "software"],
          [2_500, "travel"],
          [20_000, "software"]
        ] as const) {
          const decision = yield* service.evaluate(agent, {
            amount,
            currency: "USD",
            merchant: { name: "Air", category },
            purpose: "p"
          })
          outcomes.push(decision.outcome)
        }
        assert.deepStrictEqual(outcomes, ["approved", "pending_approval", "denied", "denied"])
        assert.deepStrictEqual(yield* rowCounts, before)
      })
    )
  }
)

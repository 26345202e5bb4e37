import { assert, layer } from "@effect/vitest"
import { searchStatement } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { SEARCH_TYPES, type TeamId } from "@svc/domain"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

layer(TestDatabase, { timeout: "60 seconds" })("search indexes (Postgres)", (it) => {
  it.effect("each type's fragment reads its GIN expression index of migration 0029 (a team of 4000 rows)", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const teamId = crypto.randomUUID() as TeamId
      yield* sql`INSERT INTO teams (id, name, base_currency, created_at) VALUES (${teamId}, 'Team', 'USD', now())`
      yield* sql`
        INSERT INTO customers (id, team_id, name, email, updated_at)
        SELECT gen_random_uuid(), ${teamId}, 'Customer ' || n, 'c' || n || '@example.com', now()
        FROM generate_series(1, 2000) n`
      yield* sql`
        INSERT INTO transactions (id, team_id, date, name, amount_minor, currency, status, manual, updated_at)
        SELECT gen_random_uuid(), ${teamId}, date '2026-01-01' + n % 365, 'Payment ' || n, -n, 'USD', 'posted', true,
               now()
        FROM generate_series(1, 2000) n`
      yield* sql`ANALYZE customers`
      yield* sql`ANALYZE transactions`
      const statement = searchStatement(sql, teamId, {
        words: ["acme", "corp"],
        types: SEARCH_TYPES,
        limit: 10
      })
      const plan = yield* sql`EXPLAIN ${statement}`
      const text = plan.map((row) => Object.values(row).join(" ")).join("\n")
      assert.include(text, "transactions_search_rank_idx", text)
      assert.include(text, "customers_search_rank_idx", text)
    })
  )
})

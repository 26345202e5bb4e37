import { assert, layer } from "@effect/vitest"
import { migrationsBefore, PortsPg, runMigrations } from "@svc/adapters-pg"
import { EmptyTestDatabase } from "@svc/adapters-pg/testing"
import { type AccountId, SpendRequestsRepo, type TeamId, usageWindows } from "@svc/domain"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"

layer(PortsPg.pipe(Layer.provideMerge(EmptyTestDatabase)), { timeout: "60 seconds" })(
  "migration 0018 (budget intervals and velocity)",
  (it) => {
    it.effect(
      "backfills week, year and lifetime totals from the day and month totals, category totals and recent request times from the requests",
      () =>
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          yield* runMigrations(migrationsBefore(18))
          const team = crypto.randomUUID()
          const account = crypto.randomUUID()
          const key = crypto.randomUUID()
          const user = crypto.randomUUID()
          yield* sql`INSERT INTO teams (id, name, base_currency, created_at) VALUES (${team}, 'T', 'USD', now())`
          yield* sql`INSERT INTO ledger_accounts (id, team_id, mode, kind, name, currency, created_at)
                   VALUES (${account}, ${team}, 'test', 'spend', 'S', 'USD', now())`
          yield* sql`INSERT INTO users (id, email) VALUES (${user}, 'owner@example.com')`
          yield* sql`INSERT INTO agent_keys (id, kind, team_id, mode, name, display_prefix, secret_hash, account_id,
                     policy, created_by, created_at)
                   VALUES (${key}, 'spending_key', ${team}, 'test', 'Agent', 'sk_test_x', ${key}, ${account}, '{}',
                     ${user}, now())`
          const recent = new Date(Date.now() - 10 * 60_000).toISOString()
          const requests: ReadonlyArray<readonly [string, string, number, string | null, string]> = [
            ["2024-12-31T23:00:00.000Z", "approved", 50, null, "approved"],
            ["2025-11-17T08:00:00.000Z", "approved", 100, "travel", "approved"],
            ["2025-11-19T09:00:00.000Z", "pending_approval", 200, " Travel", "pending_approval"],
            ["2025-11-19T10:00:00.000Z", "denied", 400, "travel", "denied"],
            ["2025-11-19T11:00:00.000Z", "expired", 800, "travel", "pending_approval"],
            ["2025-11-24T08:00:00.000Z", "approved", 300, "software", "approved"],
            [recent, "denied", 5, "travel", "denied"],
            [recent, "canceled", 7, "travel", "pending_approval"]
          ]
          for (const [at, status, amount, category, outcome] of requests) {
            yield* sql`INSERT INTO spend_requests (id, team_id, mode, status, amount, currency, merchant, purpose,
                       account_id, spending_key_id, metadata, decision, created_at, updated_at)
                     VALUES (${crypto.randomUUID()}, ${team}, 'test', ${status}, ${amount}, 'USD',
                       ${JSON.stringify({ name: "M", category, url: null })}::jsonb, 'p', ${account}, ${key},
                       '{}'::jsonb, ${JSON.stringify({ outcome, reasons: [] })}::jsonb, ${at}, ${at})`
          }
          // The running totals 0007 and every decision since keep: approved and pending spend per day and month.
          const totals: ReadonlyArray<readonly [string, string, number]> = [
            ["day", "2024-12-31T00:00:00.000Z", 50],
            ["month", "2024-12-01T00:00:00.000Z", 50],
            ["day", "2025-11-17T00:00:00.000Z", 100],
            ["day", "2025-11-19T00:00:00.000Z", 200],
            ["day", "2025-11-24T00:00:00.000Z", 300],
            ["month", "2025-11-01T00:00:00.000Z", 600]
          ]
          for (const [period, start, amount] of totals) {
            yield* sql`INSERT INTO spend_usage (spending_key_id, period, period_start, amount)
                     VALUES (${key}, ${period}, ${start}, ${amount})`
          }
          assert.deepStrictEqual(
            (yield* runMigrations(migrationsBefore(19))).map(([id]) => id),
            [18]
          )
          // The repository reads what the later migrations add too.
          yield* runMigrations()
          const repo = yield* SpendRequestsRepo
          const read = (at: string, category: string | null, maxRequestsPerHour?: number) =>
            repo.readForDecision({
              teamId: team as TeamId,
              mode: "test",
              accountId: account as AccountId,
              spendingKeyId: key,
              windows: usageWindows(Date.parse(at), category),
              at: Date.parse(at),
              requestLimits: maxRequestsPerHour === undefined ? {} : { maxRequestsPerHour, maxRequestsPerDay: 10 }
            })
          const wednesday = yield* read("2025-11-19T12:00:00.000Z", "travel")
          assert.deepStrictEqual(wednesday.spent, { day: 200, week: 300, month: 600, year: 600, lifetime: 650 })
          assert.deepStrictEqual(wednesday.categorySpent, { day: 200, week: 300, month: 300, year: 300, lifetime: 300 })
          const monday = yield* read("2025-11-24T12:00:00.000Z", "software")
          assert.deepStrictEqual(monday.spent, { day: 300, week: 300, month: 600, year: 600, lifetime: 650 })
          assert.deepStrictEqual(monday.categorySpent, { day: 300, week: 300, month: 300, year: 300, lifetime: 300 })
          const now = yield* read(new Date().toISOString(), null, 10)
          assert.deepStrictEqual(now.recentRequests, [Date.parse(recent)])
          assert.strictEqual(now.requestsToday, new Date(recent).getUTCDate() === new Date().getUTCDate() ? 1 : 0)
          const unlimited = yield* read(new Date().toISOString(), null)
          assert.deepStrictEqual([unlimited.recentRequests, unlimited.requestsToday], [[], 0])
        })
    )
  }
)

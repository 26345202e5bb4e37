import { assert, layer } from "@effect/vitest"
import { migrations, PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"

layer(PortsPg.pipe(Layer.provideMerge(TestDatabase)), { timeout: "60 seconds" })(
  "migration 0007 (spend usage)",
  (it) => {
    it.effect("backfills day and month totals of approved and pending spend from the requests already stored", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const team = crypto.randomUUID()
        const account = crypto.randomUUID()
        const key = crypto.randomUUID()
        yield* sql`INSERT INTO teams (id, name, base_currency, created_at) VALUES (${team}, 'T', 'USD', now())`
        yield* sql`INSERT INTO ledger_accounts (id, team_id, mode, kind, name, currency, created_at)
                 VALUES (${account}, ${team}, 'test', 'spend', 'S', 'USD', now())`
        const user = crypto.randomUUID()
        yield* sql`INSERT INTO users (id, email) VALUES (${user}, 'owner@example.com')`
        yield* sql`INSERT INTO agent_keys (id, kind, team_id, mode, name, display_prefix, secret_hash, account_id, policy,
                   created_by, created_at)
                 VALUES (${key}, 'spending_key', ${team}, 'test', 'Agent', 'sk_test_x', ${key}, ${account}, '{}', ${user}, now())`
        const requests: ReadonlyArray<readonly [string, string, number]> = [
          ["2026-10-31T23:59:59.999Z", "approved", 100],
          ["2026-11-01T00:00:00.000Z", "approved", 200],
          ["2026-11-01T12:00:00.000Z", "pending_approval", 300],
          ["2026-11-01T13:00:00.000Z", "denied", 400],
          ["2026-11-01T14:00:00.000Z", "expired", 500],
          ["2026-11-02T00:00:00.000Z", "approved", 600]
        ]
        for (const [at, status, amount] of requests) {
          yield* sql`INSERT INTO spend_requests (id, team_id, mode, status, amount, currency, merchant, purpose, account_id,
                     spending_key_id, metadata, decision, created_at, updated_at)
                   VALUES (${crypto.randomUUID()}, ${team}, 'test', ${status}, ${amount}, 'USD', '{}'::jsonb, 'p', ${account},
                     ${key}, '{}'::jsonb, '{}'::jsonb, ${at}, ${at})`
        }
        yield* sql`DROP TABLE spend_usage`
        yield* sql`CREATE INDEX spend_requests_key_window_idx ON spend_requests (spending_key_id, created_at)`
        const [, , load] = (yield* migrations).find(([id]) => id === 7)!
        yield* (yield* load) as Effect.Effect<void, unknown, SqlClient.SqlClient>
        const totalsAt = (day: string, month: string) =>
          sql<{ period: string; amount: string }>`
            SELECT period, amount::text AS amount FROM spend_usage
            WHERE spending_key_id = ${key}
              AND ((period = 'day' AND period_start = ${day}) OR (period = 'month' AND period_start = ${month}))
            ORDER BY period`.pipe(Effect.map((rows) => rows.map((r) => [r.period, Number(r.amount)])))
        assert.deepStrictEqual(yield* totalsAt("2026-10-31T00:00:00Z", "2026-10-01T00:00:00Z"), [
          ["day", 100],
          ["month", 100]
        ])
        assert.deepStrictEqual(yield* totalsAt("2026-11-01T00:00:00Z", "2026-11-01T00:00:00Z"), [
          ["day", 500],
          ["month", 1100]
        ])
        assert.deepStrictEqual(yield* totalsAt("2026-11-02T00:00:00Z", "2026-11-01T00:00:00Z"), [
          ["day", 600],
          ["month", 1100]
        ])
      })
    )
  }
)

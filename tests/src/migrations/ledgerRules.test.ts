import { assert, layer } from "@effect/vitest"
import { migrationsBefore, PortsPg, runMigrations } from "@svc/adapters-pg"
import { EmptyTestDatabase } from "@svc/adapters-pg/testing"
import { type AccountId, Ledger, type LedgerTransactionId, pageRequest, type TeamId } from "@svc/domain"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"

const through = (last: number) => runMigrations(migrationsBefore(last + 1))

layer(Ledger.layer.pipe(Layer.provideMerge(PortsPg), Layer.provideMerge(EmptyTestDatabase)), { timeout: "60 seconds" })(
  "migration 0009 (ledger rules)",
  (it) => {
    it.effect("applies over data written before it: rows kept, entries backfilled, rules in force", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        assert.deepStrictEqual(
          (yield* through(8)).map(([id]) => id),
          [1, 2, 3, 4, 5, 6, 7, 8]
        )
        const [user, team, spend, settlement, external, key, deposit, hold, event, endpoint] = Array.from(
          { length: 10 },
          (): string => crypto.randomUUID()
        ) as [string, string, string, string, string, string, string, string, string, string]
        yield* sql`INSERT INTO users (id, email) VALUES (${user}, 'owner@example.com')`
        yield* sql`INSERT INTO teams (id, name, base_currency, created_at) VALUES (${team}, 'Acme', 'USD', now())`
        yield* sql`UPDATE users SET current_team_id = ${team} WHERE id = ${user}`
        yield* sql`INSERT INTO ledger_accounts (id, team_id, mode, kind, name, currency, posted_sum, pending_sum, created_at)
                   VALUES (${spend}, ${team}, 'live', 'spend', 'Main', 'USD', 10000, -2500, now()),
                          (${settlement}, ${team}, 'live', 'settlement', 'Settlement USD', 'USD', 0, 2500, now()),
                          (${external}, ${team}, 'live', 'external', 'External USD', 'USD', -10000, 0, now())`
        yield* sql`INSERT INTO agent_keys (id, kind, team_id, mode, name, display_prefix, secret_hash, account_id, policy,
                     created_by, created_at)
                   VALUES (${key}, 'spending_key', ${team}, 'live', 'Agent', 'sk_live_x', 'hash', ${spend}, '{}', ${user}, now())`
        yield* sql`INSERT INTO ledger_transactions (id, team_id, mode, kind, code, reference, created_at)
                   VALUES (${deposit}, ${team}, 'live', 'posted', 'deposit', 'dep-1', now()),
                          (${hold}, ${team}, 'live', 'pending', 'spend_request', 'sr-1', now())`
        yield* sql`INSERT INTO ledger_entries (transaction_id, account_id, amount, currency, pending)
                   VALUES (${deposit}, ${external}, -10000, 'USD', false), (${deposit}, ${spend}, 10000, 'USD', false),
                          (${hold}, ${spend}, -2500, 'USD', true), (${hold}, ${settlement}, 2500, 'USD', true)`
        yield* sql`INSERT INTO spend_requests (id, team_id, mode, status, amount, currency, merchant, purpose, account_id,
                     spending_key_id, metadata, decision, hold_transaction_id, created_at, updated_at)
                   VALUES (${crypto.randomUUID()}, ${team}, 'live', 'pending_approval', 2500, 'USD', '{}', 'p', ${spend},
                     ${key}, '{}', '{}', ${hold}, now(), now())`
        yield* sql`INSERT INTO spend_usage (spending_key_id, period, period_start, amount)
                   VALUES (${key}, 'day', date_trunc('day', now()), 2500)`
        yield* sql`INSERT INTO outbox_events (id, team_id, mode, type, data, created_at, webhooks_dispatched_at)
                   VALUES (${event}, ${team}, 'live', 'spend_request.created', '{}', now(), now())`
        yield* sql`INSERT INTO webhook_endpoints (id, team_id, url, event_types, enabled, secret_salt, created_at, updated_at)
                   VALUES (${endpoint}, ${team}, 'https://example.com/h', '["*"]', true, 'salt', now(), now())`
        yield* sql`INSERT INTO webhook_deliveries (id, team_id, endpoint_id, event_id, event_type, body, status, attempts,
                     next_attempt_at, created_at, updated_at)
                   VALUES (${crypto.randomUUID()}, ${team}, ${endpoint}, ${event}, 'spend_request.created', '{}', 'pending', 0,
                     now(), now(), now())`

        assert.deepStrictEqual(
          (yield* through(9)).map(([id]) => id),
          [9]
        )
        yield* runMigrations()

        const entries = yield* sql<{ teamId: string; mode: string; currency: string; n: string }>`
          SELECT team_id, mode, currency, count(*)::text AS n FROM ledger_entries GROUP BY team_id, mode, currency`
        assert.deepStrictEqual(entries, [{ teamId: team, mode: "live", currency: "USD", n: "4" }])
        const ledger = yield* Ledger
        const teamId = team as TeamId
        const stored = yield* ledger.transactions(teamId, {}, yield* pageRequest(undefined, 10))
        assert.strictEqual(stored.length, 2)
        const held = yield* ledger.postHold(teamId, hold as LedgerTransactionId)
        assert.strictEqual(held.kind, "post_pending")
        assert.deepStrictEqual((yield* ledger.account(teamId, spend as AccountId)).balance, {
          posted: 7500,
          pending: 0,
          available: 7500
        })

        const refusedSecondSettlement = yield* Effect.flip(
          sql`INSERT INTO ledger_accounts (id, team_id, mode, kind, name, currency)
              VALUES (${crypto.randomUUID()}, ${team}, 'live', 'settlement', 'Again', 'USD')`
        )
        assert.strictEqual(refusedSecondSettlement.reason._tag, "UniqueViolation")
        const refusedUnbalanced = yield* Effect.flip(
          sql.withTransaction(
            Effect.gen(function* () {
              const tx = crypto.randomUUID()
              yield* sql`INSERT INTO ledger_transactions (id, team_id, mode, kind, code, reference)
                         VALUES (${tx}, ${team}, 'live', 'posted', 'x', 'unbalanced')`
              yield* sql`INSERT INTO ledger_entries (transaction_id, team_id, mode, account_id, amount, currency, pending)
                         VALUES (${tx}, ${team}, 'live', ${spend}, -1, 'USD', false)`
            })
          )
        )
        assert.match(String(refusedUnbalanced.reason.cause), /does not balance in USD/u)
        const refusedUpdate = yield* Effect.flip(
          sql`UPDATE ledger_entries SET amount = amount WHERE transaction_id = ${deposit}`
        )
        assert.match(String(refusedUpdate.reason.cause), /append-only/u)
        const currencyType = yield* sql<{ dataType: string }>`
          SELECT data_type FROM information_schema.columns WHERE table_name = 'ledger_entries' AND column_name = 'currency'`
        assert.deepStrictEqual(currencyType, [{ dataType: "text" }])
      })
    )
  }
)

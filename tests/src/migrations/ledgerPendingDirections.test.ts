import { assert, layer } from "@effect/vitest"
import { migrationsBefore, PortsPg, runMigrations } from "@svc/adapters-pg"
import { TestDatabaseBefore } from "@svc/adapters-pg/testing"
import { type AccountId, Ledger, SpendRequestsRepo, type TeamId, usageWindows } from "@svc/domain"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"

type Entry = readonly [account: string, amount: number, pending: boolean]

layer(Ledger.layer.pipe(Layer.provideMerge(PortsPg), Layer.provideMerge(TestDatabaseBefore(11))), {
  timeout: "60 seconds"
})("migration 0011 (pending out and in)", (it) => {
  it.effect("backfills each account's outgoing and incoming holds from its entries; the net sum is gone", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const [user, team, a, b, settlement, external, key] = Array.from({ length: 7 }, (): string =>
        crypto.randomUUID()
      ) as [string, string, string, string, string, string, string]
      yield* sql`INSERT INTO users (id, email) VALUES (${user}, 'owner@example.com')`
      yield* sql`INSERT INTO teams (id, name, base_currency) VALUES (${team}, 'Acme', 'USD')`
      yield* sql`INSERT INTO ledger_accounts (id, team_id, mode, kind, name, currency, posted_sum, pending_sum)
                 VALUES (${a}, ${team}, 'live', 'spend', 'A', 'USD', 10500, -800),
                        (${b}, ${team}, 'live', 'spend', 'B', 'USD', 4500, -3000),
                        (${settlement}, ${team}, 'live', 'settlement', 'Settlement USD', 'USD', 0, 3800),
                        (${external}, ${team}, 'live', 'external', 'External USD', 'USD', -15000, 0)`
      yield* sql`INSERT INTO agent_keys (id, kind, team_id, mode, name, display_prefix, secret_hash, account_id, policy,
                   created_by)
                 VALUES (${key}, 'spending_key', ${team}, 'live', 'Agent', 'svc_x', ${key}, ${a}, '{}', ${user})`
      const record = (kind: string, reference: string, pendingId: string | null, entries: ReadonlyArray<Entry>) =>
        sql.withTransaction(
          Effect.gen(function* () {
            const id = crypto.randomUUID()
            yield* sql`INSERT INTO ledger_transactions (id, team_id, mode, kind, code, reference, pending_id)
                       VALUES (${id}, ${team}, 'live', ${kind}, 'transfer', ${reference}, ${pendingId})`
            for (const [account, amount, pending] of entries) {
              yield* sql`INSERT INTO ledger_entries (transaction_id, team_id, mode, account_id, amount, currency, pending)
                         VALUES (${id}, ${team}, 'live', ${account}, ${amount}, 'USD', ${pending})`
            }
            return id
          })
        )
      const hold = (reference: string, from: string, to: string, amount: number) =>
        record("pending", reference, null, [
          [from, -amount, true],
          [to, amount, true]
        ])
      const resolve = (
        kind: "post_pending" | "void_pending",
        holdId: string,
        from: string,
        to: string,
        amount: number
      ) =>
        record(kind, holdId, holdId, [
          [from, amount, true],
          [to, -amount, true],
          ...(kind === "post_pending"
            ? ([
                [from, -amount, false],
                [to, amount, false]
              ] as const)
            : [])
        ])
      yield* record("posted", "dep-a", null, [
        [external, -10_000, false],
        [a, 10_000, false]
      ])
      yield* record("posted", "dep-b", null, [
        [external, -5_000, false],
        [b, 5_000, false]
      ])
      yield* hold("b-into-a", b, a, 3_000)
      yield* hold("a-out", a, settlement, 4_000)
      yield* resolve("void_pending", yield* hold("a-out-voided", a, settlement, 1_000), a, settlement, 1_000)
      yield* resolve("post_pending", yield* hold("b-into-a-posted", b, a, 500), b, a, 500)
      yield* hold("settlement-into-a", settlement, a, 200)

      assert.deepStrictEqual(
        (yield* runMigrations(migrationsBefore(12))).map(([id]) => id),
        [11]
      )

      const sums = yield* sql<{ id: string; postedSum: string; pendingOut: string; pendingIn: string }>`
        SELECT id, posted_sum::text, pending_out::text, pending_in::text FROM ledger_accounts WHERE team_id = ${team}`
      const byId = new Map(sums.map((row) => [row.id, [row.postedSum, row.pendingOut, row.pendingIn]]))
      assert.deepStrictEqual(
        [a, b, settlement, external].map((id) => byId.get(id)),
        [
          ["10500", "4000", "3200"],
          ["4500", "3000", "0"],
          ["0", "200", "4000"],
          ["-15000", "0", "0"]
        ]
      )
      const oldColumn = yield* sql`
        SELECT 1 FROM information_schema.columns WHERE table_name = 'ledger_accounts' AND column_name = 'pending_sum'`
      assert.strictEqual(oldColumn.length, 0)

      const ledger = yield* Ledger
      const teamId = team as TeamId
      assert.deepStrictEqual((yield* ledger.account(teamId, a as AccountId)).balance, {
        posted: 10_500,
        pending: 800,
        available: 6_500
      })
      // The spend decisions' lock (0014 replaced 0011's) reads the backfilled counters.
      yield* runMigrations()
      const [decision] = yield* SpendRequestsRepo.use((repo) =>
        repo.lockForDecisions([
          {
            teamId,
            mode: "live",
            accountId: a as AccountId,
            spendingKeyId: key,
            windows: usageWindows(Date.now(), null),
            at: Date.now(),
            requestLimits: {}
          }
        ])
      )
      assert.deepStrictEqual(Option.map(decision!.spendAccount, (l) => l.counters).pipe(Option.getOrThrow), {
        postedSum: 10_500,
        pendingOut: 4_000,
        pendingIn: 3_200
      })
      const movement = (reference: string, amount: number) => ({
        teamId,
        mode: "live" as const,
        code: "transfer",
        reference,
        debitAccountId: a as AccountId,
        creditAccountId: settlement as AccountId,
        amount
      })
      assert.strictEqual((yield* Effect.flip(ledger.transfer(movement("too-much", 6_501))))._tag, "InsufficientFunds")
      yield* ledger.transfer(movement("all", 6_500))
      const overdraw = yield* Effect.flip(sql`UPDATE ledger_accounts SET posted_sum = posted_sum - 1 WHERE id = ${a}`)
      assert.match(String(overdraw.reason.cause), /ledger_accounts_spend_available_check/u)
      const negative = yield* Effect.flip(sql`UPDATE ledger_accounts SET pending_in = -1 WHERE id = ${b}`)
      assert.match(String(negative.reason.cause), /ledger_accounts_pending_check/u)
    })
  )
})

import { assert, layer } from "@effect/vitest"
import { PortsPg, runMigrations } from "@svc/adapters-pg"
import { TestDatabaseBefore } from "@svc/adapters-pg/testing"
import { AgentKeys, AuditLog, AuditLogRepo, chainHash, GENESIS_HASH, Ledger, TeamId } from "@svc/domain"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"

const services = Layer.merge(AuditLog.layer, AgentKeys.layer).pipe(
  Layer.provideMerge(Ledger.layer),
  Layer.provideMerge(PortsPg.pipe(Layer.provideMerge(TestDatabaseBefore(20))))
)

layer(services, { timeout: "60 seconds" })("migration 0020 (policy versions and audit log)", (it) => {
  it.effect(
    "gives existing keys and team policies their version 1; outbox events are chained; the database refuses changes",
    () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const team = crypto.randomUUID()
        const account = crypto.randomUUID()
        const user = crypto.randomUUID()
        const key = crypto.randomUUID()
        yield* sql`INSERT INTO users (id, email, created_at) VALUES (${user}, 'owner@example.com', now())`
        yield* sql`INSERT INTO teams (id, name, base_currency, created_at) VALUES (${team}, 'T', 'USD', now())`
        yield* sql`INSERT INTO ledger_accounts (id, team_id, mode, kind, name, currency, created_at)
                   VALUES (${account}, ${team}, 'test', 'spend', 'S', 'USD', now())`
        yield* sql`INSERT INTO agent_keys (id, kind, team_id, mode, name, display_prefix, secret_hash, account_id, policy,
                     created_by, created_at)
                   VALUES (${key}, 'spending_key', ${team}, 'test', 'Agent', 'svc_test_x', ${key}, ${account},
                     '{"perRequestLimit": 700}', ${user}, '2026-11-01T00:00:00.000Z')`
        yield* sql`INSERT INTO team_spend_policies (team_id, policy) VALUES (${team}, '{"dailyBudget": 900}')`

        yield* runMigrations()

        const keys = yield* AgentKeys
        const teamId = TeamId.make(team)
        const [listed] = yield* keys.listSpendingKeys(teamId)
        assert.strictEqual(listed?.policyVersion, 1)
        const versions = yield* keys.policyVersions(teamId, key)
        assert.deepStrictEqual(
          versions.map((v): ReadonlyArray<unknown> => [v.subject, v.version, v.policy, v.createdBy]).toSorted(),
          [
            ["spending_key", 1, { perRequestLimit: 700 }, user],
            ["team", 1, { dailyBudget: 900 }, null]
          ]
        )
        const next = yield* keys.setTeamPolicy(teamId, { dailyBudget: 1_000 }, null)
        assert.strictEqual(next.version, 2)

        yield* sql`INSERT INTO outbox_events (id, team_id, mode, type, data, created_at)
                   VALUES (${crypto.randomUUID()}, ${team}, 'test', 'thing.happened', '{"n": 1}', now()),
                          (${crypto.randomUUID()}, ${team}, 'test', 'thing.happened', '{"n": 2}', now())`
        const rows = yield* AuditLogRepo.use((repo) => repo.range(teamId, 0, 10))
        assert.deepStrictEqual(
          rows.map((r) => [r.seq, JSON.parse(r.content).type, JSON.parse(r.content).data]),
          [
            [1, "policy_version.created", JSON.parse(rows[0]?.content ?? "{}").data],
            [2, "thing.happened", { n: 1 }],
            [3, "thing.happened", { n: 2 }]
          ]
        )
        assert.strictEqual(rows[0]?.prevHash, GENESIS_HASH)
        for (const row of rows) assert.strictEqual(row.hash, yield* chainHash(row.prevHash, row.content))
        assert.isTrue((yield* AuditLog.use((audit) => audit.verify(teamId))).valid)

        for (const statement of [
          sql`UPDATE audit_entries SET content = '{}' WHERE team_id = ${team} AND seq = 2`,
          sql`DELETE FROM audit_entries WHERE team_id = ${team} AND seq = 3`,
          sql`TRUNCATE audit_entries`,
          sql`UPDATE policy_versions SET policy = '{}' WHERE team_id = ${team}`,
          sql`DELETE FROM policy_versions WHERE team_id = ${team}`
        ]) {
          const refused = yield* Effect.flip(statement)
          assert.strictEqual(refused._tag, "SqlError")
        }
        assert.lengthOf(yield* AuditLogRepo.use((repo) => repo.range(teamId, 0, 10)), 3)
        assert.lengthOf(yield* keys.policyVersions(teamId, key), 3)
      })
  )
})

import { assert, layer } from "@effect/vitest"
import { PortsPg, runMigrations } from "@svc/adapters-pg"
import { TestDatabaseBefore } from "@svc/adapters-pg/testing"
import { CategoriesRepo, STANDARD_CATEGORIES, TeamId } from "@svc/domain"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"

const newTeam = (sql: SqlClient.SqlClient, name: string) =>
  Effect.gen(function* () {
    const id = TeamId.make(crypto.randomUUID())
    yield* sql`INSERT INTO teams (id, name, base_currency, created_at) VALUES (${id}, ${name}, 'EUR', now())`
    return id
  })

layer(PortsPg.pipe(Layer.provideMerge(TestDatabaseBefore(22))), { timeout: "60 seconds" })(
  "migration 0022 (finance core)",
  (it) => {
    it.effect("seeds the standard taxonomy for every team already there, and holds its references within a team", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const acme = yield* newTeam(sql, "Acme")
        const other = yield* newTeam(sql, "Other")

        yield* runMigrations()

        const repo = yield* CategoriesRepo
        for (const team of [acme, other]) {
          const categories = yield* repo.list(team)
          assert.strictEqual(categories.length, STANDARD_CATEGORIES.length)
          const bySlug = new Map(categories.map((c) => [c.slug, c]))
          for (const standard of STANDARD_CATEGORIES) {
            const seeded = bySlug.get(standard.slug)!
            assert.isTrue(seeded.system)
            assert.strictEqual(seeded.teamId, team)
            assert.deepStrictEqual(
              [seeded.name, seeded.color, seeded.type, seeded.excluded, seeded.taxRate, seeded.taxType],
              [standard.name, standard.color, standard.type, standard.excluded, standard.taxRate, standard.taxType]
            )
            const parent = categories.find((c) => c.id === seeded.parentId)
            assert.strictEqual(parent?.slug ?? null, standard.parent, `${standard.slug}'s parent`)
          }
          assert.isTrue(bySlug.get("internal-transfer")!.excluded)
          assert.isTrue(bySlug.get("credit-card-payment")!.excluded)
          assert.strictEqual(bySlug.get("customer-refunds")!.type, "contra_revenue")
        }

        const otherCategory = (yield* repo.list(other))[0]!
        const crossTeam = yield* Effect.flip(
          sql`INSERT INTO transactions (id, team_id, date, name, amount_minor, currency, status, manual, category_id, updated_at)
              VALUES (${crypto.randomUUID()}, ${acme}, '2026-01-05', 'Coffee', -450, 'EUR', 'posted', true,
                      ${otherCategory.id}, now())`
        )
        assert.strictEqual(crossTeam._tag, "SqlError", "a transaction cannot use another team's category")

        const imported = (id: string) =>
          sql`INSERT INTO transactions (id, team_id, date, name, amount_minor, currency, status, manual, provider,
                                        provider_transaction_id, updated_at)
              VALUES (${id}, ${acme}, '2026-01-05', 'Salary', 100000, 'EUR', 'posted', false, 'bank-aggregator-a',
                      'tx-1', now())`
        yield* imported(crypto.randomUUID())
        const twice = yield* Effect.flip(imported(crypto.randomUUID()))
        assert.strictEqual(twice._tag, "SqlError", "one transaction per team, provider and provider id")

        const withoutProvider = yield* Effect.flip(
          sql`INSERT INTO transactions (id, team_id, date, name, amount_minor, currency, status, manual, updated_at)
              VALUES (${crypto.randomUUID()}, ${acme}, '2026-01-05', 'X', 1, 'EUR', 'posted', false, now())`
        )
        assert.strictEqual(withoutProvider._tag, "SqlError", "an imported transaction names its provider")

        const [found] = yield* sql<{ hits: number }>`
          SELECT count(*)::int AS hits FROM transactions
          WHERE team_id = ${acme} AND search @@ to_tsquery('simple', 'sal:*')`
        assert.strictEqual(found?.hits, 1, "the text search vector is generated")
      })
    )
  }
)

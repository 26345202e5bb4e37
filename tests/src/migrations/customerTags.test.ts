import { assert, layer } from "@effect/vitest"
import { migrationsBefore, PortsPg, runMigrations } from "@svc/adapters-pg"
import { EmptyTestDatabase } from "@svc/adapters-pg/testing"
import { CustomersRepo, TeamId } from "@svc/domain"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"

layer(PortsPg.pipe(Layer.provideMerge(EmptyTestDatabase)), { timeout: "60 seconds" })(
  "migration 0051 (customer description and tags)",
  (it) => {
    it.effect("customers created before it read with no description or tags, and take them; tags stay the team's", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* runMigrations(migrationsBefore(51))
        const teamId = TeamId.make(crypto.randomUUID())
        const otherTeam = TeamId.make(crypto.randomUUID())
        const id = crypto.randomUUID()
        const tagId = crypto.randomUUID()
        const foreignTag = crypto.randomUUID()
        for (const [team, name] of [
          [teamId, "Acme"],
          [otherTeam, "Other"]
        ] as const) {
          yield* sql`INSERT INTO teams (id, name, base_currency, created_at) VALUES (${team}, ${name}, 'USD', now())`
        }
        yield* sql`INSERT INTO tags (id, team_id, name, created_at) VALUES (${tagId}, ${teamId}, 'VIP', now()),
                     (${foreignTag}, ${otherTeam}, 'Theirs', now())`
        yield* sql`INSERT INTO customers (id, team_id, name, created_at, updated_at)
                   VALUES (${id}, ${teamId}, 'Old', '2026-01-02T03:04:05Z', '2026-01-02T03:04:05Z')`
        const applied = (yield* runMigrations()).map(([n]) => n)
        assert.strictEqual(applied[0], 51)
        const repo = yield* CustomersRepo
        const customer = Option.getOrThrow(yield* repo.find(teamId, id))
        assert.deepInclude(customer, { name: "Old", description: null, tags: [], tagIds: [] })
        assert.isTrue(yield* repo.update({ ...customer, description: "Anvils", tagIds: [tagId] }))
        assert.deepInclude(Option.getOrThrow(yield* repo.find(teamId, id)), {
          description: "Anvils",
          tags: [{ id: tagId, name: "VIP" }]
        })
        const crossTeam = yield* Effect.flip(
          sql`INSERT INTO customer_tags (team_id, customer_id, tag_id) VALUES (${teamId}, ${id}, ${foreignTag})`
        )
        assert.strictEqual(crossTeam._tag, "SqlError")
      })
    )
  }
)

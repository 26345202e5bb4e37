import { assert, layer } from "@effect/vitest"
import { migrationsBefore, PortsPg, runMigrations } from "@svc/adapters-pg"
import { EmptyTestDatabase } from "@svc/adapters-pg/testing"
import { DashboardSessionsRepo, UserId } from "@svc/domain"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"

layer(PortsPg.pipe(Layer.provideMerge(EmptyTestDatabase)), { timeout: "60 seconds" })(
  "migration 0052 (personal tokens)",
  (it) => {
    it.effect("sessions opened before it stay browser sessions; a name and a preview come together or not at all", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* runMigrations(migrationsBefore(52))
        const user = UserId.make(crypto.randomUUID())
        yield* sql`INSERT INTO users (id, email, created_at) VALUES (${user}, 'ada@example.com', now())`
        yield* sql`INSERT INTO dashboard_sessions (id, token_hash, user_id, csrf_token, created_at, expires_at)
                   VALUES (${crypto.randomUUID()}, 'old-hash', ${user}, 'csrf', '2030-01-01T00:00:00Z',
                           '2030-01-01T12:00:00Z')`
        const applied = (yield* runMigrations()).map(([n]) => n)
        assert.strictEqual(applied[0], 52)
        const repo = yield* DashboardSessionsRepo
        const old = Option.getOrThrow(yield* repo.findSession("old-hash"))
        assert.deepInclude(old, { name: null, preview: null })
        assert.deepStrictEqual(yield* repo.listPersonalTokens(user, "2030-01-01T01:00:00Z"), [])
        const halfToken = yield* Effect.flip(
          sql`INSERT INTO dashboard_sessions (id, token_hash, user_id, csrf_token, created_at, expires_at, name)
              VALUES (${crypto.randomUUID()}, 'half', ${user}, 'csrf', now(), now() + interval '1 day', 'laptop')`
        )
        const cause = halfToken.reason.cause as { code?: string; constraint?: string }
        assert.deepStrictEqual([cause.code, cause.constraint], ["23514", "dashboard_sessions_personal_token_check"])
      })
    )
  }
)

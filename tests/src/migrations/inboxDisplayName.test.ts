import { assert, layer } from "@effect/vitest"
import { migrationsBefore, PortsPg, runMigrations } from "@svc/adapters-pg"
import { EmptyTestDatabase } from "@svc/adapters-pg/testing"
import { InboxItemsRepo, TeamId } from "@svc/domain"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"

layer(PortsPg.pipe(Layer.provideMerge(EmptyTestDatabase)), { timeout: "60 seconds" })(
  "migration 0046 (inbox display name)",
  (it) => {
    it.effect("items received before it read with no display name, and can be renamed", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* runMigrations(migrationsBefore(46))
        const teamId = TeamId.make(crypto.randomUUID())
        const id = crypto.randomUUID()
        yield* sql`INSERT INTO teams (id, name, base_currency, created_at) VALUES (${teamId}, 'Acme', 'USD', now())`
        yield* sql`INSERT INTO inbox_items (id, team_id, message_id, sender, recipient, subject, text_body, html_body,
                   attachments, created_at, updated_at)
                 VALUES (${id}, ${teamId}, 'm-old', 'a@b.example', 'x@y.example', 'Old', '', '', '[]'::jsonb,
                   '2026-01-02T03:04:05Z', '2026-01-02T03:04:05Z')`
        // 0046 runs first; later migrations follow it.
        const applied = (yield* runMigrations()).map(([n]) => n)
        assert.strictEqual(applied[0], 46)
        assert.isTrue(applied.every((n) => n >= 46))
        const repo = yield* InboxItemsRepo
        const item = Option.getOrThrow(yield* repo.find(teamId, id))
        assert.deepInclude(item, { subject: "Old", displayName: null })
        assert.isTrue(yield* repo.update({ ...item, displayName: "Renamed" }))
        assert.strictEqual(Option.getOrThrow(yield* repo.find(teamId, id)).displayName, "Renamed")
      })
    )
  }
)

import { assert, layer } from "@effect/vitest"
import { migrationsBefore, PortsPg, runMigrations } from "@svc/adapters-pg"
import { EmptyTestDatabase } from "@svc/adapters-pg/testing"
import { InboxItemsRepo, TeamId } from "@svc/domain"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"

layer(PortsPg.pipe(Layer.provideMerge(EmptyTestDatabase)), { timeout: "60 seconds" })(
  "migration 0026 (inbox)",
  (it) => {
    it.effect("items received before it read as pending, unmatched, their attachments marked as not stored", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* runMigrations(migrationsBefore(26))
        const teamId = TeamId.make(crypto.randomUUID())
        const id = crypto.randomUUID()
        yield* sql`INSERT INTO teams (id, name, base_currency, created_at) VALUES (${teamId}, 'Acme', 'USD', now())`
        yield* sql`INSERT INTO inbox_items (id, team_id, message_id, sender, recipient, subject, text_body, html_body,
                   attachments, created_at)
                 VALUES (${id}, ${teamId}, 'm-old', 'a@b.example', 'x@y.example', 'Old', '', '',
                   '[{"filename": "a.pdf", "contentType": "application/pdf", "size": 3},
                     {"filename": "b.png", "contentType": "image/png", "size": 4}]'::jsonb,
                   '2026-01-02T03:04:05Z')`
        assert.deepStrictEqual(
          (yield* runMigrations(migrationsBefore(27))).map(([n]) => n),
          [26]
        )
        yield* runMigrations()
        const item = Option.getOrThrow(yield* InboxItemsRepo.use((repo) => repo.find(teamId, id)))
        const skipped = "received before attachments were stored"
        assert.deepInclude(item, { status: "pending", transactionId: null, updatedAt: item.createdAt })
        assert.deepStrictEqual(item.attachments, [
          { filename: "a.pdf", contentType: "application/pdf", size: 3, path: null, skipped },
          { filename: "b.png", contentType: "image/png", size: 4, path: null, skipped }
        ])
        const unknownStatus = yield* Effect.flip(sql`UPDATE inbox_items SET status = 'lost' WHERE id = ${id}`)
        assert.strictEqual(unknownStatus._tag, "SqlError")
        const unknownTransaction = yield* Effect.flip(
          sql`UPDATE inbox_items SET transaction_id = ${crypto.randomUUID()} WHERE id = ${id}`
        )
        assert.strictEqual(unknownTransaction._tag, "SqlError", "a match is a foreign key to the team's transaction")
      })
    )
  }
)

import { assert, layer } from "@effect/vitest"
import { migrationsBefore, PortsPg, runMigrations } from "@svc/adapters-pg"
import { EmptyTestDatabase } from "@svc/adapters-pg/testing"
import { InvoicesRepo, TeamId } from "@svc/domain"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"

layer(PortsPg.pipe(Layer.provideMerge(EmptyTestDatabase)), { timeout: "60 seconds" })(
  "migration 0049 (invoice internal note)",
  (it) => {
    it.effect("invoices made before it read with no internal note, and can be given one", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* runMigrations(migrationsBefore(49))
        const teamId = TeamId.make(crypto.randomUUID())
        const id = crypto.randomUUID()
        yield* sql`INSERT INTO teams (id, name, base_currency, created_at) VALUES (${teamId}, 'Acme', 'USD', now())`
        yield* sql`INSERT INTO invoices (id, team_id, invoice_number, status, customer_id, customer_name, currency,
                   issue_date, due_date, line_items, discount_minor, note, token, created_at, updated_at)
                 VALUES (${id}, ${teamId}, 'INV-0001', 'draft', NULL, 'Globex', 'USD', '2026-01-10', '2026-02-10',
                   '[]'::jsonb, 0, 'Thanks', 'tok-old', '2026-01-10T00:00:00Z', '2026-01-10T00:00:00Z')`
        const applied = (yield* runMigrations()).map(([n]) => n)
        assert.strictEqual(applied[0], 49)
        const repo = yield* InvoicesRepo
        const invoice = Option.getOrThrow(yield* repo.find(teamId, id))
        assert.deepInclude(invoice, { note: "Thanks", internalNote: null })
      })
    )
  }
)

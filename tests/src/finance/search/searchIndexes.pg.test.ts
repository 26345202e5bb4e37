import { assert, layer } from "@effect/vitest"
import { searchStatement } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { SEARCH_TYPES, type TeamId } from "@svc/domain"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

layer(TestDatabase, { timeout: "60 seconds" })("search indexes (Postgres)", (it) => {
  it.effect("each type's fragment reads its GIN expression index of migrations 0029 and 0030 (2000 rows a type)", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const teamId = crypto.randomUUID() as TeamId
      yield* sql`INSERT INTO teams (id, name, base_currency, created_at) VALUES (${teamId}, 'Team', 'USD', now())`
      yield* sql`
        INSERT INTO customers (id, team_id, name, email, updated_at)
        SELECT gen_random_uuid(), ${teamId}, 'Customer ' || n, 'c' || n || '@example.com', now()
        FROM generate_series(1, 2000) n`
      yield* sql`
        INSERT INTO transactions (id, team_id, date, name, amount_minor, currency, status, manual, updated_at)
        SELECT gen_random_uuid(), ${teamId}, date '2026-01-01' + n % 365, 'Payment ' || n, -n, 'USD', 'posted', true,
               now()
        FROM generate_series(1, 2000) n`
      yield* sql`
        INSERT INTO invoices (id, team_id, invoice_number, status, customer_name, currency, issue_date, due_date,
                              line_items, discount_minor, note, token, updated_at)
        SELECT gen_random_uuid(), ${teamId}, 'INV-' || n, 'draft', 'Customer ' || n, 'USD', date '2026-01-01',
               date '2026-02-01', jsonb_build_array(jsonb_build_object('name', 'Work ' || n, 'quantity', 1,
               'unitPriceMinor', n, 'taxRate', NULL, 'vatRate', NULL)), 0, 'Note ' || n, 'token-' || gen_random_uuid(),
               now()
        FROM generate_series(1, 2000) n`
      yield* sql`
        INSERT INTO documents (id, team_id, title, name, content_type, size, path)
        SELECT gen_random_uuid(), ${teamId}, 'Document ' || n, 'file-' || n || '.pdf', 'application/pdf', 1,
               'vault/' || gen_random_uuid()
        FROM generate_series(1, 2000) n`
      yield* sql`
        INSERT INTO inbox_items (id, team_id, message_id, sender, recipient, subject, text_body, html_body, attachments,
                                 created_at, updated_at)
        SELECT gen_random_uuid(), ${teamId}, 'm-' || n, 'sender' || n || '@example.com', 'inbox@example.com',
               'Mail ' || n, 'Body ' || n, '', jsonb_build_array(jsonb_build_object('filename', 'scan-' || n || '.pdf')),
               now(), now()
        FROM generate_series(1, 2000) n`
      for (const table of ["customers", "transactions", "invoices", "documents", "inbox_items"]) {
        yield* sql`ANALYZE ${sql(table)}`
      }
      const statement = searchStatement(sql, teamId, {
        words: ["acme", "corp"],
        types: SEARCH_TYPES,
        limit: 10
      })
      const plan = yield* sql`EXPLAIN ${statement}`
      const text = plan.map((row) => Object.values(row).join(" ")).join("\n")
      for (const table of ["transactions", "customers", "invoices", "documents", "inbox_items"]) {
        assert.include(text, `${table}_search_rank_idx`, text)
      }
    })
  )
})

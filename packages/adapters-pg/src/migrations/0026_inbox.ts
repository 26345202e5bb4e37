import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Inbox items get a status (`pending`, `done`, `archived`), a match to one of the team's transactions (unmatched when
 * the transaction is deleted) and an update time; each attachment records its vault path, or why it was not stored
 * (items received before this migration kept no content).
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    ALTER TABLE inbox_items
      ADD COLUMN status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done', 'archived')),
      ADD COLUMN transaction_id uuid,
      ADD COLUMN updated_at timestamptz,
      ADD CONSTRAINT inbox_items_transaction_fk FOREIGN KEY (team_id, transaction_id)
        REFERENCES transactions (team_id, id) ON DELETE SET NULL (transaction_id)`
  yield* sql`
    UPDATE inbox_items SET
      updated_at = created_at,
      attachments = (
        SELECT coalesce(jsonb_agg(a || '{"path": null, "skipped": "received before attachments were stored"}'::jsonb
                                  ORDER BY n), '[]'::jsonb)
        FROM jsonb_array_elements(attachments) WITH ORDINALITY AS e(a, n)
      )`
  yield* sql`ALTER TABLE inbox_items ALTER COLUMN updated_at SET NOT NULL`
  yield* sql`CREATE INDEX inbox_items_team_created ON inbox_items (team_id, created_at DESC, id DESC)`
  yield* sql`CREATE INDEX inbox_items_transaction ON inbox_items (team_id, transaction_id) WHERE transaction_id IS NOT NULL`
})

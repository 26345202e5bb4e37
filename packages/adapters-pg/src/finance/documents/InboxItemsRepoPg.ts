import { InboxAttachment, InboxItem, InboxItemsRepo } from "@svc/domain"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, decodeRows, orUnavailable } from "../../shared/index.ts"

const IdRow = Schema.Struct({ id: Schema.String })

/** A row: the attachments selected as JSON text (`transformResultNames` would rename parsed keys). */
const InboxRow = Schema.Struct({
  ...InboxItem.fields,
  attachments: Schema.fromJsonString(Schema.Array(InboxAttachment))
})

const COLUMNS = `id, team_id, message_id, sender, recipient, subject, display_name, text_body, html_body, attachments::text AS attachments,
  status, transaction_id, created_at, updated_at`

/** InboxItemsRepo on Postgres. */
export const InboxItemsRepoPg = Layer.effect(
  InboxItemsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const changed = (operation: string) => (rows: ReadonlyArray<Readonly<Record<string, unknown>>>) =>
      decodeRows(IdRow, operation)(rows).pipe(Effect.map((decoded) => decoded.length > 0))
    const columns = sql.unsafe(COLUMNS)
    return InboxItemsRepo.of({
      insert: (i) =>
        sql`
          INSERT INTO inbox_items (id, team_id, message_id, sender, recipient, subject, display_name, text_body, html_body,
                                   attachments, status, transaction_id, created_at, updated_at)
          VALUES (${i.id}, ${i.teamId}, ${i.messageId}, ${i.sender}, ${i.recipient}, ${i.subject}, ${i.displayName}, ${i.textBody},
                  ${i.htmlBody}, ${JSON.stringify(i.attachments)}::jsonb, ${i.status}, ${i.transactionId},
                  ${i.createdAt}, ${i.updatedAt})
          ON CONFLICT (team_id, message_id) DO NOTHING RETURNING id`.pipe(
          orUnavailable("inboxItems.insert"),
          Effect.flatMap(changed("inboxItems.insert"))
        ),
      find: (teamId, id) =>
        sql`SELECT ${columns} FROM inbox_items WHERE id = ${id} AND team_id = ${teamId}`.pipe(
          orUnavailable("inboxItems.find"),
          Effect.flatMap(decodeFirst(InboxRow, "inboxItems.find"))
        ),
      list: (teamId, status, page) =>
        sql`
          SELECT ${columns} FROM inbox_items WHERE team_id = ${teamId}
          ${status === null ? sql`` : sql`AND status = ${status}`}
          ${Option.match(page.after, {
            onNone: () => sql``,
            onSome: (p) => sql`AND (created_at, id) < (${p.createdAt}::timestamptz, ${p.id}::uuid)`
          })}
          ORDER BY created_at DESC, id DESC LIMIT ${page.limit + 1}`.pipe(
          orUnavailable("inboxItems.list"),
          Effect.flatMap(decodeRows(InboxRow, "inboxItems.list"))
        ),
      update: (i) =>
        sql`UPDATE inbox_items SET status = ${i.status}, transaction_id = ${i.transactionId}, display_name = ${i.displayName},
              updated_at = ${i.updatedAt}
            WHERE id = ${i.id} AND team_id = ${i.teamId}
            RETURNING id`.pipe(orUnavailable("inboxItems.update"), Effect.flatMap(changed("inboxItems.update"))),
      delete: (teamId, id) =>
        sql`DELETE FROM inbox_items WHERE id = ${id} AND team_id = ${teamId} RETURNING id`.pipe(
          orUnavailable("inboxItems.delete"),
          Effect.flatMap(changed("inboxItems.delete"))
        )
    })
  })
)

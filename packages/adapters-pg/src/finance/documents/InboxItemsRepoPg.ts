import { InboxItem, InboxItemsRepo } from "@svc/domain"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { decodeRows, orUnavailable } from "../../shared/index.ts"

/** InboxItemsRepo on Postgres. */
export const InboxItemsRepoPg = Layer.effect(
  InboxItemsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return InboxItemsRepo.of({
      insert: (i) =>
        sql`
          INSERT INTO inbox_items (id, team_id, message_id, sender, recipient, subject, text_body, html_body,
                                   attachments, created_at)
          VALUES (${i.id}, ${i.teamId}, ${i.messageId}, ${i.sender}, ${i.recipient}, ${i.subject}, ${i.textBody},
                  ${i.htmlBody}, ${JSON.stringify(i.attachments)}::jsonb, ${i.createdAt})
          ON CONFLICT (team_id, message_id) DO NOTHING RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          orUnavailable("inboxItems.insert")
        ),
      list: (teamId) =>
        sql`SELECT * FROM inbox_items WHERE team_id = ${teamId} ORDER BY created_at DESC, id DESC`.pipe(
          orUnavailable("inboxItems.list"),
          Effect.flatMap(decodeRows(InboxItem, "inboxItems.list"))
        )
    })
  })
)

import { type InboxAttachment, type InboxItem, InboxItemsRepo, type TeamId } from "@svc/domain"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { iso, orUnavailable } from "../../shared/index.ts"

interface Row {
  readonly id: string
  readonly teamId: string
  readonly messageId: string
  readonly sender: string
  readonly recipient: string
  readonly subject: string
  readonly textBody: string
  readonly htmlBody: string
  readonly attachments: ReadonlyArray<InboxAttachment> | string
  readonly createdAt: Date
}

/** InboxItemsRepo on Postgres. */
export const InboxItemsRepoPg = Layer.effect(
  InboxItemsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return InboxItemsRepo.of({
      insert: (i) =>
        sql<{ id: string }>`
          INSERT INTO inbox_items (id, team_id, message_id, sender, recipient, subject, text_body, html_body,
                                   attachments, created_at)
          VALUES (${i.id}, ${i.teamId}, ${i.messageId}, ${i.sender}, ${i.recipient}, ${i.subject}, ${i.textBody},
                  ${i.htmlBody}, ${JSON.stringify(i.attachments)}::jsonb, ${i.createdAt})
          ON CONFLICT (team_id, message_id) DO NOTHING RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          orUnavailable("inboxItems.insert")
        ),
      list: (teamId) =>
        sql<Row>`SELECT * FROM inbox_items WHERE team_id = ${teamId} ORDER BY created_at DESC, id DESC`.pipe(
          Effect.map((rows) =>
            rows.map(
              (r): InboxItem => ({
                id: r.id,
                teamId: r.teamId as TeamId,
                messageId: r.messageId,
                sender: r.sender,
                recipient: r.recipient,
                subject: r.subject,
                textBody: r.textBody,
                htmlBody: r.htmlBody,
                attachments: typeof r.attachments === "string" ? JSON.parse(r.attachments) : r.attachments,
                createdAt: iso(r.createdAt)
              })
            )
          ),
          orUnavailable("inboxItems.list")
        )
    })
  })
)

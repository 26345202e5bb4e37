import { Context, type Effect, Schema } from "effect"
import type { PersistenceUnavailable } from "../../shared/index.ts"
import { TeamId } from "../../shared/index.ts"

/** An attachment of a received e-mail (metadata; the content's size in bytes). */
export const InboxAttachment = Schema.Struct({
  filename: Schema.String,
  contentType: Schema.String,
  size: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))
})
export type InboxAttachment = typeof InboxAttachment.Type

/** An e-mail received on a team's inbox address. */
export const InboxItem = Schema.Struct({
  id: Schema.String,
  teamId: TeamId,
  messageId: Schema.String,
  sender: Schema.String,
  recipient: Schema.String,
  subject: Schema.String,
  textBody: Schema.String,
  htmlBody: Schema.String,
  attachments: Schema.Array(InboxAttachment),
  createdAt: Schema.String
})
export type InboxItem = typeof InboxItem.Type

/** Storage of inbox items, one per (team, message id). */
export class InboxItemsRepo extends Context.Service<
  InboxItemsRepo,
  {
    /** Inserts the item unless the team already has that message; true when inserted. */
    readonly insert: (item: InboxItem) => Effect.Effect<boolean, PersistenceUnavailable>
    /** The team's items, newest first. */
    readonly list: (teamId: TeamId) => Effect.Effect<ReadonlyArray<InboxItem>, PersistenceUnavailable>
  }
>()("@svc/domain/InboxItemsRepo") {}

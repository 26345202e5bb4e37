import { Context, type Effect, type Option, Schema } from "effect"
import type { PageRequest, PersistenceUnavailable } from "../../shared/index.ts"
import { TeamId } from "../../shared/model.ts"

/**
 * An attachment of a received e-mail: its name, type and size in bytes, and either the vault path it is stored at or
 * why it was not stored (`skipped`, e.g. over the file limit).
 */
export const InboxAttachment = Schema.Struct({
  filename: Schema.String,
  contentType: Schema.String,
  size: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
  path: Schema.NullOr(Schema.String),
  skipped: Schema.NullOr(Schema.String)
})
export type InboxAttachment = typeof InboxAttachment.Type

/** Where an inbox item stands: `pending` (to be handled), `done` (matched or handled), `archived` (put away). */
export const InboxStatus = Schema.Literals(["pending", "done", "archived"])
export type InboxStatus = typeof InboxStatus.Type

/** An e-mail received on a team's inbox address, matched to at most one transaction. */
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
  status: InboxStatus,
  transactionId: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  updatedAt: Schema.String
})
export type InboxItem = typeof InboxItem.Type

const { teamId: _teamId, ...clientFields } = InboxItem.fields

/** An inbox item as clients see it: every stored field but the team, and its object name. */
export const InboxItemView = Schema.Struct({ object: Schema.Literal("inbox_item"), ...clientFields })
export type InboxItemView = typeof InboxItemView.Type

/** The client view of an inbox item. */
export const inboxItemView = ({ teamId: _teamId, ...item }: InboxItem): InboxItemView => ({
  ...item,
  object: "inbox_item"
})

/** Storage of inbox items, one per (team, message id). */
export class InboxItemsRepo extends Context.Service<
  InboxItemsRepo,
  {
    /** Inserts the item unless the team already has that message; true when inserted. */
    readonly insert: (item: InboxItem) => Effect.Effect<boolean, PersistenceUnavailable>
    readonly find: (teamId: TeamId, id: string) => Effect.Effect<Option.Option<InboxItem>, PersistenceUnavailable>
    /** The team's items newest first (of `status` when given), up to `page.limit + 1`. */
    readonly list: (
      teamId: TeamId,
      status: InboxStatus | null,
      page: PageRequest
    ) => Effect.Effect<ReadonlyArray<InboxItem>, PersistenceUnavailable>
    /** Stores the item's status and match; false when the team has no item with its id. */
    readonly update: (item: InboxItem) => Effect.Effect<boolean, PersistenceUnavailable>
    /** Deletes an item; false when the team has none with that id. */
    readonly delete: (teamId: TeamId, id: string) => Effect.Effect<boolean, PersistenceUnavailable>
  }
>()("@svc/domain/InboxItemsRepo") {}

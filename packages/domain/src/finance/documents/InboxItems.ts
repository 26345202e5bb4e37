import { Schema } from "effect"
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
  /** The name a member gave the item; null until renamed. */
  displayName: Schema.NullOr(Schema.String),
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

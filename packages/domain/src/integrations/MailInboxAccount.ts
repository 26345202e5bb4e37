import { Schema } from "effect"
import { TeamId, UserId } from "../shared/model.ts"

/** An inbox account's id. */
export const InboxAccountId = Schema.String.check(Schema.isUUID()).pipe(Schema.brand("InboxAccountId"))
export type InboxAccountId = typeof InboxAccountId.Type

/** Whether the service still reaches the mailbox: `disconnected` after the provider refused its tokens. */
export const InboxAccountStatus = Schema.Literals(["connected", "disconnected"])
export type InboxAccountStatus = typeof InboxAccountStatus.Type

/**
 * A mailbox a team connected through the mail provider's OAuth flow, one per (team, address); its invoices and
 * receipts reach the team's inbox. `accessToken` and `refreshToken` are sealed (`SealedSecrets`) and never leave the
 * service; `expiresAt` is when the access token lapses, when the provider said.
 */
export const MailInboxAccount = Schema.Struct({
  id: InboxAccountId,
  teamId: TeamId,
  provider: Schema.String,
  email: Schema.String,
  accessToken: Schema.String,
  refreshToken: Schema.NullOr(Schema.String),
  expiresAt: Schema.NullOr(Schema.String),
  status: InboxAccountStatus,
  lastError: Schema.NullOr(Schema.String),
  connectedBy: UserId,
  createdAt: Schema.String,
  updatedAt: Schema.String
})
export type MailInboxAccount = typeof MailInboxAccount.Type

/** An inbox account as its team sees it: never its tokens. */
export const InboxAccountView = Schema.Struct({
  id: Schema.String,
  object: Schema.Literal("inbox_account"),
  provider: Schema.String,
  email: Schema.String,
  status: InboxAccountStatus,
  lastError: Schema.NullOr(Schema.String),
  expiresAt: Schema.NullOr(Schema.String),
  connectedBy: Schema.String,
  createdAt: Schema.String,
  updatedAt: Schema.String
})
export type InboxAccountView = typeof InboxAccountView.Type

/** The view of an inbox account. */
export const inboxAccountView = (account: MailInboxAccount): InboxAccountView => ({
  id: account.id,
  object: "inbox_account",
  provider: account.provider,
  email: account.email,
  status: account.status,
  lastError: account.lastError,
  expiresAt: account.expiresAt,
  connectedBy: account.connectedBy,
  createdAt: account.createdAt,
  updatedAt: account.updatedAt
})

/**
 * A mailbox connection that failed: the provider refused the authorization or the code, or no longer accepts an
 * account's tokens. `id` and `email` name the account when one is concerned; `reason` never carries a token.
 */
export const InboxConnectionFailureView = Schema.Struct({
  id: Schema.NullOr(Schema.String),
  object: Schema.Literal("inbox_connection_failure"),
  provider: Schema.String,
  email: Schema.NullOr(Schema.String),
  reason: Schema.String,
  occurredAt: Schema.String
})
export type InboxConnectionFailureView = typeof InboxConnectionFailureView.Type

/** The outbound event of a failed mailbox connection; it carries `InboxConnectionFailureView` and notifies the team. */
export const InboxAccountEventType = Schema.Literal("inbox_account.connection_failed")
export type InboxAccountEventType = typeof InboxAccountEventType.Type

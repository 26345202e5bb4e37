import { Schema } from "effect"

/** The mail app has no client id or secret configured, so no mailbox can be connected. */
export class MailAppNotConfigured extends Schema.TaggedError<MailAppNotConfigured>()("MailAppNotConfigured", {}) {}

/** The OAuth callback is malformed: `field` names the query parameter at fault (`state`, `code`). */
export class MailCallbackInvalid extends Schema.TaggedError<MailCallbackInvalid>()("MailCallbackInvalid", {
  field: Schema.String,
  message: Schema.String
}) {}

/** The provider did not complete an exchange or a revocation; `reason` is safe to show (never a token). */
export class MailProviderFailed extends Schema.TaggedError<MailProviderFailed>()("MailProviderFailed", {
  reason: Schema.String
}) {}

/** No inbox account of this id in the team. */
export class InboxAccountNotFound extends Schema.TaggedError<InboxAccountNotFound>()("InboxAccountNotFound", {
  id: Schema.String
}) {}

/** Only the team's owners and admins connect and disconnect mailboxes. */
export class MailConnectionForbidden extends Schema.TaggedError<MailConnectionForbidden>()("MailConnectionForbidden", {
  action: Schema.String
}) {}

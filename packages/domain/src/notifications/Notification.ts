import { Schema } from "effect"
import { TeamId, UserId } from "../shared/model.ts"

/** Where a notification stands for its reader. */
export const NotificationStatus = Schema.Literals(["unread", "read", "archived"])
export type NotificationStatus = typeof NotificationStatus.Type

/** Who made a notification: the service itself, or a person. */
export const NotificationSource = Schema.Literals(["system", "user"])
export type NotificationSource = typeof NotificationSource.Type

/** A notification's priority: 1-3 are user notifications, 4-10 are system ones. */
export const NotificationPriority = Schema.Int.check(
  Schema.isBetween({ minimum: 1, maximum: 10 }, { message: "expected an integer from 1 to 10" })
)

/**
 * Something a team's members should see (SPEC.md's Notification). `userId` null: the whole team sees it. `eventId`
 * is the outbox event it was made from (null for notifications not made from an event); one notification per event.
 */
export const Notification = Schema.Struct({
  id: Schema.String,
  teamId: TeamId,
  userId: Schema.NullOr(UserId),
  type: Schema.String,
  priority: NotificationPriority,
  source: NotificationSource,
  status: NotificationStatus,
  metadata: Schema.Record(Schema.String, Schema.Unknown),
  lastUsedAt: Schema.NullOr(Schema.String),
  eventId: Schema.NullOr(Schema.String),
  createdAt: Schema.String
})
export type Notification = typeof Notification.Type

/** A notification as clients see it: SPEC.md's Notification shape. */
export const NotificationView = Schema.Struct({
  id: Schema.String,
  createdAt: Schema.String,
  teamId: Schema.String,
  userId: Schema.NullOr(Schema.String),
  type: Schema.String,
  priority: NotificationPriority,
  source: NotificationSource,
  status: NotificationStatus,
  metadata: Schema.Record(Schema.String, Schema.Unknown),
  lastUsedAt: Schema.NullOr(Schema.String)
})
export type NotificationView = typeof NotificationView.Type

/** The client view of a notification. */
export const notificationView = (n: Notification): NotificationView => ({
  id: n.id,
  createdAt: n.createdAt,
  teamId: n.teamId,
  userId: n.userId,
  type: n.type,
  priority: n.priority,
  source: n.source,
  status: n.status,
  metadata: n.metadata,
  lastUsedAt: n.lastUsedAt
})

/** What a notification made from an event says, before it gets an id and a time. */
export interface NotificationDraft {
  readonly type: string
  readonly priority: number
}

/** The outbox event types a member is told about, and the notification each becomes. */
export const NOTIFYING_EVENTS: Readonly<Record<string, NotificationDraft>> = {
  "spend_request.approval_required": { type: "spend_request_approval_required", priority: 1 },
  "transfer.approval_required": { type: "transfer_approval_required", priority: 1 },
  "checkout_intent.approval_required": { type: "checkout_intent_approval_required", priority: 1 },
  "crypto_payout.approval_required": { type: "crypto_payout_approval_required", priority: 1 },
  "x402_payment.approval_required": { type: "x402_payment_approval_required", priority: 1 },
  "webhook_endpoint.disabled": { type: "webhook_endpoint_disabled", priority: 2 },
  "bank_connection.disconnected": { type: "bank_connection_disconnected", priority: 2 },
  "chat_integration.disconnected": { type: "chat_integration_disconnected", priority: 2 },
  "inbox_account.connection_failed": { type: "inbox_account_connection_failed", priority: 2 },
  "transfer.created": { type: "transfer_received", priority: 3 },
  "invoice.paid": { type: "invoice_paid", priority: 3 }
}

/**
 * The notification an outbox event becomes, if any: an approval waiting (spend request, transfer, checkout intent),
 * a transfer received (the recipient's copy of `transfer.created`), an outbound webhook endpoint disabled, a bank
 * connection, the chat app's connection or a mailbox connection lost, an invoice paid by its customer. Its metadata names the event and carries the resource as the event did (never a secret: events
 * are what webhook receivers get).
 */
export const notificationOfEvent = (event: {
  readonly id: string
  readonly type: string
  readonly mode: string
  readonly data: Readonly<Record<string, unknown>>
}): (NotificationDraft & { readonly metadata: Record<string, unknown> }) | null => {
  const draft = NOTIFYING_EVENTS[event.type]
  if (draft === undefined) return null
  if (event.type === "transfer.created" && event.data.direction !== "incoming") return null
  const resourceId = typeof event.data.id === "string" ? event.data.id : null
  return {
    ...draft,
    metadata: { eventId: event.id, eventType: event.type, mode: event.mode, resourceId, resource: event.data }
  }
}

import { Schema } from "effect"
import { CheckoutIntentStatus } from "../checkout/model.ts"
import { Mode } from "../shared/model.ts"
import { DecisionReason, SpendRequestStatus } from "../spend/model.ts"
import { TransferStatus } from "../transfers/model.ts"

/** What an activity item is: a spend request, an outgoing transfer or a checkout intent. */
export const ActivityKind = Schema.Literals(["spend_request", "transfer", "checkout_intent"])
export type ActivityKind = typeof ActivityKind.Type

/** The statuses each kind of item takes (its own values). */
export const ACTIVITY_STATUSES: Readonly<Record<ActivityKind, ReadonlyArray<string>>> = {
  spend_request: SpendRequestStatus.literals,
  transfer: TransferStatus.literals,
  checkout_intent: CheckoutIntentStatus.literals
}

/** One governed ask of the team's agents, whatever its kind, as the dashboard lists it (amounts in minor units). */
export const ActivityItem = Schema.Struct({
  object: Schema.Literal("activity"),
  kind: ActivityKind,
  id: Schema.String,
  mode: Mode,
  /** The spending key that made it. */
  keyId: Schema.NullOr(Schema.String),
  /** That key's name; null when the key is unknown. */
  keyName: Schema.NullOr(Schema.String),
  amount: Schema.Int,
  currency: Schema.String,
  status: Schema.String,
  /** The merchant (spend request, checkout intent) or the recipient's address (transfer). */
  counterparty: Schema.NullOr(Schema.String),
  /** The agent's stated purpose (a transfer's memo). */
  purpose: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  approvalId: Schema.NullOr(Schema.String)
})
export type ActivityItem = typeof ActivityItem.Type

/** One thing that happened to an item, oldest first in its trail. */
export const TrailStep = Schema.Struct({
  at: Schema.String,
  /** e.g. `requested`, `policy_evaluated`, `approval_required`, `approved`, `denied`, `expired`, `captured`, `canceled`. */
  action: Schema.String,
  /** The key's name, the member's e-mail, or `system`. */
  actor: Schema.NullOr(Schema.String),
  /** The policy's reasons or the approver's note. */
  detail: Schema.NullOr(Schema.String),
  /** On the policy's steps, its reasons with their numbers (minor units of the item's currency); absent when none. */
  reasons: Schema.optionalKey(Schema.Array(DecisionReason)),
  /** On a `captured` step, the amount captured (minor units of the item's currency). */
  amount: Schema.optionalKey(Schema.Int)
})
export type TrailStep = typeof TrailStep.Type

/** A UTC calendar day, `YYYY-MM-DD`. */
export const UtcDate = Schema.String.check(Schema.isPattern(/^\d{4}-\d{2}-\d{2}$/u))

/** What one spending key spent per UTC day of a window, and its budget usage as the policy counts it. */
export const KeySpendStats = Schema.Struct({
  keyId: Schema.String,
  keyName: Schema.String,
  currency: Schema.String,
  /** One entry per day of the window, oldest first, zeros included: money the key actually spent that day. */
  daily: Schema.Array(Schema.Struct({ date: UtcDate, amount: Schema.Int })),
  /** The key's approved and pending spend in the current UTC day, as its daily budget counts it. */
  usedToday: Schema.Int,
  /** The same in the current UTC month, as its monthly budget counts it. */
  usedThisMonth: Schema.Int,
  /** The effective daily budget (the key's, else the team's); null when none. */
  dailyLimit: Schema.NullOr(Schema.Int),
  monthlyLimit: Schema.NullOr(Schema.Int)
})
export type KeySpendStats = typeof KeySpendStats.Type

/** Each live (unrevoked) key's spend over the last `days` UTC days, `from` to `to` inclusive. */
export const SpendStats = Schema.Struct({
  object: Schema.Literal("spend_stats"),
  from: UtcDate,
  to: UtcDate,
  keys: Schema.Array(KeySpendStats)
})
export type SpendStats = typeof SpendStats.Type

/** The item is not the team's, or does not exist. */
export class ActivityNotFound extends Schema.TaggedError<ActivityNotFound>()("ActivityNotFound", {
  kind: ActivityKind,
  id: Schema.String
}) {}

/** A filter of the activity list is inconsistent (a status no listed kind takes, `from` not before `to`). */
export class ActivityFilterInvalid extends Schema.TaggedError<ActivityFilterInvalid>()("ActivityFilterInvalid", {
  field: Schema.String,
  message: Schema.String
}) {}

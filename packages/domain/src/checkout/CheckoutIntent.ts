import { Schema } from "effect"
import { ApprovalView } from "../approvals/model.ts"
import { AccountId, EXAMPLE_ID, Mode, TeamId } from "../shared/model.ts"
import { SpendDecision } from "../spend/model.ts"
import { CardReference } from "./Card.ts"

/** A checkout (purchase) intent's id. */
export const CheckoutIntentId = Schema.String.check(Schema.isUUID()).pipe(Schema.brand("CheckoutIntentId"))
export type CheckoutIntentId = typeof CheckoutIntentId.Type

/**
 * `pending_approval` (the agent's policy routed it to a human) -> `approved` -> `authorized` (the card's first
 * approved authorization holds the money) -> `completed` (the issuer cleared it); `expired`, `canceled` or `denied`
 * end it unused. Final statuses never change.
 */
export const CheckoutIntentStatus = Schema.Literals([
  "pending_approval",
  "approved",
  "authorized",
  "completed",
  "expired",
  "canceled",
  "denied"
]).annotate({
  description:
    "`pending_approval` (a person decides), `approved` (ask for the card), `authorized` (the card's first authorization holds the money), `completed` (cleared); `expired`, `canceled` or `denied` end it unused.",
  examples: ["approved"]
})
export type CheckoutIntentStatus = typeof CheckoutIntentStatus.Type

/** The statuses an intent ends in without having been used: its budget usage is given back. */
export const UNUSED_INTENT_STATUSES = [
  "expired",
  "canceled",
  "denied"
] as const satisfies ReadonlyArray<CheckoutIntentStatus>

/** How long an intent lives when the agent does not say: one hour. */
export const DEFAULT_INTENT_TTL_SECONDS = 3_600
/** The shortest and longest lives an agent may ask for (one minute, 30 days). */
export const MIN_INTENT_TTL_SECONDS = 60
export const MAX_INTENT_TTL_SECONDS = 2_592_000
/** The longest purpose and merchant name an intent carries. */
export const INTENT_TEXT_MAX_LENGTH = 500

/** A four-digit ISO 18245 merchant category code. */
export const MerchantCategoryCode = Schema.String.check(
  Schema.isPattern(/^[0-9]{4}$/u, { message: "a merchant category code is four digits" })
).annotate({ description: "The merchant's four-digit ISO 18245 merchant category code.", examples: ["5734"] })

/** A two-letter ISO 3166-1 country code, upper case. */
export const CountryCode = Schema.String.check(
  Schema.isPattern(/^[A-Z]{2}$/u, { message: "a country is a two-letter upper-case ISO 3166-1 code" })
).annotate({ description: "The merchant's country, a two-letter upper-case ISO 3166-1 code.", examples: ["US"] })

/** The merchant an intent (and the card issued for it) is locked to. */
export const IntentMerchant = Schema.Struct({
  name: Schema.String.annotate({ description: "The merchant the card is locked to.", examples: ["Acme Cloud"] }),
  url: Schema.NullOr(Schema.String).annotate({
    description: "The merchant's web address; null when none was given.",
    examples: ["https://acme.example"]
  }),
  mcc: Schema.NullOr(MerchantCategoryCode).annotate({
    description: "The merchant's ISO 18245 category code; null when none was given.",
    examples: ["5734"]
  }),
  country: Schema.NullOr(CountryCode).annotate({
    description: "The merchant's ISO 3166-1 country; null when none was given.",
    examples: ["US"]
  })
})
export type IntentMerchant = typeof IntentMerchant.Type

/** An agent's just-in-time purchase intent, with the policy decision, its card and what its authorizations hold. */
export const CheckoutIntent = Schema.Struct({
  id: CheckoutIntentId,
  teamId: TeamId,
  mode: Mode,
  status: CheckoutIntentStatus,
  amount: Schema.Int,
  currency: Schema.String,
  merchant: IntentMerchant,
  purpose: Schema.String,
  /** The spend account an authorization holds the money on. */
  accountId: AccountId,
  /** The agent's credential, whose budgets count the intent. */
  spendingKeyId: Schema.String,
  decision: SpendDecision,
  approval: Schema.NullOr(ApprovalView),
  /** The card issued for the intent; null until the agent asks for its credentials. */
  card: Schema.NullOr(CardReference),
  /** What the approved authorization holds (0 before it and after it is released or cleared). */
  authorizedAmount: Schema.Int,
  /** What the issuer cleared; null until completed. */
  capturedAmount: Schema.NullOr(Schema.Int),
  /** When an unused intent expires. */
  expiresAt: Schema.String,
  createdAt: Schema.String,
  updatedAt: Schema.String
})
export type CheckoutIntent = typeof CheckoutIntent.Type

/** An intent as its team sees it: the HTTP answers and the events' `data`. */
export const CheckoutIntentView = Schema.Struct({
  id: Schema.String.annotate({
    description: "The intent's id, a UUID.",
    examples: [EXAMPLE_ID]
  }),
  object: Schema.Literal("checkout_intent").annotate({ description: "Always `checkout_intent`." }),
  mode: Mode,
  status: CheckoutIntentStatus,
  amount: Schema.Int.annotate({
    description: "The most the card may be charged, in minor units of the currency (1999 is 19.99 USD).",
    examples: [1999]
  }),
  currency: Schema.String.annotate({
    description: "The ISO 4217 code of the amount's currency (the spend account's).",
    examples: ["USD"]
  }),
  merchant: IntentMerchant.annotate({ description: "The merchant the intent and its card are locked to." }),
  purpose: Schema.String.annotate({
    description: "Why the agent buys, as it said.",
    examples: ["Annual domain renewal"]
  }),
  accountId: Schema.String.annotate({
    description: "The spend account that pays, a UUID.",
    examples: [EXAMPLE_ID]
  }),
  spendingKeyId: Schema.String.annotate({
    description: "The credential that made the intent (a spending key or team API key id).",
    examples: [EXAMPLE_ID]
  }),
  decision: SpendDecision.annotate({ description: "What the key's policy decided, and why." }),
  approval: Schema.NullOr(ApprovalView).annotate({
    description: "The human approval when policy routed the intent to a person; null otherwise."
  }),
  /** The issued card's reference (never its number). */
  card: Schema.NullOr(CardReference).annotate({
    description: "The issued card's reference (never its number); null until the card is asked for."
  }),
  authorizedAmount: Schema.Int.annotate({
    description:
      "What card authorizations hold in minor units of the currency (1999 is 19.99 USD); 0 before the first.",
    examples: [1999]
  }),
  capturedAmount: Schema.NullOr(Schema.Int).annotate({
    description: "What the issuer cleared in minor units of the currency (1999 is 19.99 USD); null until completed.",
    examples: [1999]
  }),
  expiresAt: Schema.String.annotate({
    description: "When an unused intent expires (ISO 8601, UTC).",
    examples: ["2026-03-01T12:00:00.000Z"]
  }),
  createdAt: Schema.String.annotate({
    description: "When the intent was made (ISO 8601, UTC).",
    examples: ["2026-03-01T12:00:00.000Z"]
  }),
  updatedAt: Schema.String.annotate({
    description: "When the intent last changed (ISO 8601, UTC).",
    examples: ["2026-03-01T12:00:00.000Z"]
  })
})
export type CheckoutIntentView = typeof CheckoutIntentView.Type

/** The outbound events of an intent's changes; each carries the intent as its team sees it (`CheckoutIntentView`). */
export const CheckoutIntentEventType = Schema.Literals([
  "checkout_intent.created",
  "checkout_intent.approval_required",
  "checkout_intent.approved",
  "checkout_intent.denied",
  "checkout_intent.canceled",
  "checkout_intent.expired",
  "checkout_intent.card_issued",
  "checkout_intent.authorized",
  "checkout_intent.completed"
])
export type CheckoutIntentEventType = typeof CheckoutIntentEventType.Type

/** The intent as its team sees it. */
export const checkoutIntentView = (intent: CheckoutIntent): CheckoutIntentView => ({
  id: intent.id,
  object: "checkout_intent",
  mode: intent.mode,
  status: intent.status,
  amount: intent.amount,
  currency: intent.currency,
  merchant: intent.merchant,
  purpose: intent.purpose,
  accountId: intent.accountId,
  spendingKeyId: intent.spendingKeyId,
  decision: intent.decision,
  approval: intent.approval,
  card: intent.card,
  authorizedAmount: intent.authorizedAmount,
  capturedAmount: intent.capturedAmount,
  expiresAt: intent.expiresAt,
  createdAt: intent.createdAt,
  updatedAt: intent.updatedAt
})

/** A status change of an intent, with what it changes beside the status. */
export interface CheckoutIntentTransition {
  readonly status: CheckoutIntentStatus
  readonly authorizedAmount?: number | undefined
  readonly capturedAmount?: number | null | undefined
  readonly card?: CardReference | undefined
  readonly updatedAt: string
}

/** No intent of this id in the caller's team and mode. */
export class CheckoutIntentNotFound extends Schema.TaggedError<CheckoutIntentNotFound>()("CheckoutIntentNotFound", {
  id: Schema.String
}) {}

/** A new intent is malformed or impossible; `field` names the input at fault. */
export class CheckoutIntentInvalid extends Schema.TaggedError<CheckoutIntentInvalid>()("CheckoutIntentInvalid", {
  field: Schema.String,
  message: Schema.String
}) {}

/** The intent is not in a status the operation needs (canceling a used intent, a card for one not approved). */
export class CheckoutIntentNotUsable extends Schema.TaggedError<CheckoutIntentNotUsable>()("CheckoutIntentNotUsable", {
  id: Schema.String,
  status: CheckoutIntentStatus
}) {}

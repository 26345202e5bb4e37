import { Schema } from "effect"
import { type ApprovalStatus, ApprovalView } from "../approvals/model.ts"
import {
  AccountId,
  Currency,
  EXAMPLE_ID,
  HttpUrl,
  isoOfMillis,
  LedgerTransactionId,
  Mode,
  PositiveAmountMinor,
  TeamId
} from "../shared/model.ts"
import { utcDayStart, utcMonthStart, utcWeekStart, utcYearStart } from "./BudgetPeriods.ts"
import { CategorySlug, normalizeCategory, SpendDecision } from "./SpendPolicy.ts"

/** A spend request's id. */
export const SpendRequestId = Schema.String.check(Schema.isUUID()).pipe(Schema.brand("SpendRequestId"))
export type SpendRequestId = typeof SpendRequestId.Type

/** `approved` and `denied` are decided at creation; `pending_approval` ends approved, denied, expired or canceled. */
export const SpendRequestStatus = Schema.Literals(["approved", "denied", "pending_approval", "expired", "canceled"])
export type SpendRequestStatus = typeof SpendRequestStatus.Type

/** Who a merchant is. */
export const Merchant = Schema.Struct({
  name: Schema.String.annotate({ description: "Who is paid.", examples: ["OpenAI"] }),
  category: Schema.NullOr(Schema.String).annotate({
    description: "The merchant's category slug as policy reads it; null when none was given.",
    examples: ["software"]
  }),
  url: Schema.NullOr(Schema.String).annotate({
    description: "The merchant's web address; null when none was given.",
    examples: ["https://openai.com"]
  })
})
export type Merchant = typeof Merchant.Type

/** An agent's request to spend, with the policy decision and the money it moved. */
export const SpendRequest = Schema.Struct({
  id: SpendRequestId,
  teamId: TeamId,
  mode: Mode,
  status: SpendRequestStatus,
  amount: Schema.Int,
  currency: Schema.String,
  merchant: Merchant,
  purpose: Schema.String,
  accountId: AccountId,
  spendingKeyId: Schema.String,
  metadata: Schema.Record(Schema.String, Schema.String),
  decision: SpendDecision,
  /** The human approval of a request that crossed the approval threshold (stored in the approvals context). */
  approval: Schema.NullOr(ApprovalView),
  /** The ledger transaction that posted the spend; null until money has moved. */
  ledgerTransactionId: Schema.NullOr(LedgerTransactionId),
  /** The hold reserving the amount while approval is pending (internal). */
  holdTransactionId: Schema.NullOr(LedgerTransactionId),
  createdAt: Schema.String,
  updatedAt: Schema.String
})
export type SpendRequest = typeof SpendRequest.Type

/** The outbound events of a spend request's changes; each carries the request as of the change (`SpendRequestView`). */
export const SpendRequestEventType = Schema.Literals([
  "spend_request.created",
  "spend_request.approval_required",
  "spend_request.approved",
  "spend_request.denied",
  "spend_request.expired",
  "spend_request.canceled"
])
export type SpendRequestEventType = typeof SpendRequestEventType.Type

/** A spend request as clients see it: the HTTP answers and the events' `data`. */
export const SpendRequestView = Schema.Struct({
  id: Schema.String.annotate({
    description: "The spend request's id, a UUID.",
    examples: [EXAMPLE_ID]
  }),
  object: Schema.Literal("spend_request").annotate({ description: "Always `spend_request`." }),
  mode: Mode,
  status: SpendRequestStatus.annotate({
    description:
      "`approved` and `denied` are decided at creation; `pending_approval` ends approved, denied, expired or canceled.",
    examples: ["approved"]
  }),
  amount: Schema.Int.annotate({
    description: "The amount in minor units of the currency (1999 is 19.99 USD).",
    examples: [1999]
  }),
  currency: Schema.String.annotate({ description: "The ISO 4217 code of the amount's currency.", examples: ["USD"] }),
  merchant: Merchant.annotate({ description: "Who is paid." }),
  purpose: Schema.String.annotate({
    description: "Why the agent spends, as it said.",
    examples: ["Monthly API credits"]
  }),
  accountId: Schema.String.annotate({
    description: "The spend account paid from, a UUID.",
    examples: [EXAMPLE_ID]
  }),
  spendingKeyId: Schema.String.annotate({
    description: "The credential that made the request (a spending key or team API key id).",
    examples: [EXAMPLE_ID]
  }),
  metadata: Schema.Record(Schema.String, Schema.String).annotate({
    description: "Your own key-value pairs, as sent.",
    examples: [{ orderId: "ord_1234" }]
  }),
  decision: SpendDecision.annotate({ description: "What policy decided, and why." }),
  approval: Schema.NullOr(ApprovalView).annotate({
    description: "The human approval of a request that crossed the approval threshold; null otherwise."
  }),
  ledgerTransactionId: Schema.NullOr(Schema.String).annotate({
    description: "The ledger transaction that posted the spend; null until money has moved.",
    examples: [EXAMPLE_ID]
  }),
  createdAt: Schema.String.annotate({
    description: "When the request was made (ISO 8601, UTC).",
    examples: ["2026-03-01T12:00:00.000Z"]
  }),
  updatedAt: Schema.String.annotate({
    description: "When the request last changed (ISO 8601, UTC).",
    examples: ["2026-03-01T12:00:00.000Z"]
  })
})
export type SpendRequestView = typeof SpendRequestView.Type

/** The view of a spend request. */
export const spendRequestJson = (sr: SpendRequest): SpendRequestView => ({
  id: sr.id,
  object: "spend_request" as const,
  mode: sr.mode,
  status: sr.status,
  amount: sr.amount,
  currency: sr.currency,
  merchant: sr.merchant,
  purpose: sr.purpose,
  accountId: sr.accountId,
  spendingKeyId: sr.spendingKeyId,
  metadata: sr.metadata,
  decision: sr.decision,
  approval: sr.approval,
  ledgerTransactionId: sr.ledgerTransactionId,
  createdAt: sr.createdAt,
  updatedAt: sr.updatedAt
})

/** The request does not exist for this team and mode. */
export class SpendRequestNotFound extends Schema.TaggedError<SpendRequestNotFound>()("SpendRequestNotFound", {
  id: Schema.String
}) {}

/** The request is final (or its approval expired) and cannot take this transition. */
export class SpendRequestNotPending extends Schema.TaggedError<SpendRequestNotPending>()("SpendRequestNotPending", {
  id: Schema.String,
  status: SpendRequestStatus
}) {}

/** A field of the request is inconsistent with the account or credential. */
export class SpendRequestInvalid extends Schema.TaggedError<SpendRequestInvalid>()("SpendRequestInvalid", {
  field: Schema.String,
  message: Schema.String
}) {}

const MetadataKey = Schema.String.check(
  Schema.isBetweenLength(1, 40, { message: "metadata keys are 1..40 characters" })
)
const MetadataValue = Schema.String.check(
  Schema.isMaxLength(500, { message: "metadata values are at most 500 characters" })
)

/**
 * What an agent asks to spend (the command of a new spend request), with the rule of every field: the HTTP body is
 * this Schema, so a request over HTTP reaches `SpendRequests` decoded by it; `SpendRequests` checks the amount again by
 * the same rule, the one the ledger depends on, for callers in process.
 */
export const CreateSpendRequest = Schema.Struct({
  amount: PositiveAmountMinor,
  currency: Currency.annotate({
    description: "The ISO 4217 code of the amount's currency, in upper case; the account's currency.",
    examples: ["USD"]
  }),
  merchant: Schema.Struct({
    name: Schema.String.check(
      Schema.isBetweenLength(1, 200),
      Schema.isPattern(/\S/u, { message: "must not be blank" })
    ).annotate({
      description: "Who is paid, as the key's policy names merchants in its allow and block lists (1..200 characters).",
      examples: ["OpenAI"]
    }),
    category: Schema.optionalKey(
      CategorySlug.annotate({
        description:
          "What kind of purchase this is, as a lowercase slug the key's policy may allow or block (e.g. `software`, " +
          "`travel`, `advertising`); without it, a policy with an allowed-categories list denies the request.",
        examples: ["software"]
      })
    ),
    url: Schema.optionalKey(
      HttpUrl.annotate({ description: "The merchant's web address (http or https).", examples: ["https://openai.com"] })
    )
  }).annotate({ description: "The merchant to pay." }),
  purpose: Schema.String.check(
    Schema.isBetweenLength(1, 1000, { message: "expected 1..1000 characters" }),
    Schema.isPattern(/\S/u, { message: "must not be blank" })
  ).annotate({
    description:
      "Why the agent spends, in words an approver reads on the approval card and in the audit log (1..1000 characters).",
    examples: ["API tokens for the support assistant"]
  }),
  accountId: Schema.optionalKey(
    Schema.String.check(Schema.isUUID(undefined, { message: "expected a UUID" })).annotate({
      description: "The account to pay from; the credential's default account when omitted."
    })
  ),
  metadata: Schema.optionalKey(
    Schema.Record(MetadataKey, MetadataValue)
      .check(Schema.isMaxProperties(20, { message: "at most 20 metadata keys" }))
      .annotate({
        description: "Your own key-value pairs (at most 20), stored with the request and answered with it.",
        examples: [{ orderId: "ord_123" }]
      })
  )
})
export type CreateSpendRequest = typeof CreateSpendRequest.Type

/** The account a request asks to pay from, or none: an id the ledger looks up, so an unknown one is refused there. */
export const askedAccountId = (input: CreateSpendRequest): AccountId | null =>
  input.accountId === undefined ? null : (input.accountId as AccountId)

/** Filter of a spend-request list. */
export interface SpendRequestQuery {
  readonly mode?: Mode | undefined
  readonly status?: SpendRequestStatus | undefined
  readonly approvalStatus?: ApprovalStatus | undefined
  /** Only requests that were routed to a human. */
  readonly withApproval?: boolean | undefined
  /** Only those made with this credential. */
  readonly spendingKeyId?: string | undefined
  /** Only those created at or after this moment (ISO 8601). */
  readonly createdFrom?: string | undefined
  /** Only those created strictly before this moment (ISO 8601). */
  readonly createdBefore?: string | undefined
}

/** The fields a transition out of `pending_approval` sets (its approval is decided in the approvals context). */
export interface Transition {
  readonly status: Exclude<SpendRequestStatus, "pending_approval">
  readonly ledgerTransactionId: LedgerTransactionId | null
  readonly updatedAt: string
}

/**
 * The running totals a governed ask counts in: the starts (ISO 8601) of the UTC day, ISO week, month and year its
 * moment falls in (the lifetime total has no start), and its category (normalised; null without one), whose totals
 * category budgets count.
 */
export interface UsageWindows {
  readonly day: string
  readonly week: string
  readonly month: string
  readonly year: string
  readonly category: string | null
}

/** The totals an ask of `category` at a moment (epoch millis) counts in. */
export const usageWindows = (millis: number, category: string | null | undefined): UsageWindows => ({
  day: isoOfMillis(utcDayStart(millis)),
  week: isoOfMillis(utcWeekStart(millis)),
  month: isoOfMillis(utcMonthStart(millis)),
  year: isoOfMillis(utcYearStart(millis)),
  category: normalizeCategory(category)
})

/** What a decided ask adds to its credential's totals: `amount` in `windows` (0 when denied), and a request at `at`. */
export interface RequestUsage {
  readonly windows: UsageWindows
  readonly amount: number
  /** When the ask was decided (epoch millis); it counts towards the velocity limits unless it was denied. */
  readonly at: number
}

import { Schema, Struct } from "effect"
import { ApprovalView } from "../approvals/model.ts"
import { AccountId, EXAMPLE_ID, LedgerTransactionId, Mode, TeamId } from "../shared/model.ts"
import { SpendDecision } from "../spend/model.ts"
import { CryptoQuoteId, QuotedTerms } from "./Quote.ts"

/** A payout's id. */
export const CryptoPayoutId = Schema.String.check(Schema.isUUID()).pipe(Schema.brand("CryptoPayoutId"))
export type CryptoPayoutId = typeof CryptoPayoutId.Type

/**
 * `pending_approval` -> `pending` (held, queued for the worker) -> `submitted` (the rail's transaction known, `txHash`)
 * -> `confirmed` (hold posted) or `failed` (hold released); `denied` (by policy or an approver), `canceled` (by the
 * agent before submission), `expired` (the quote or the approval expired while awaiting approval). Final statuses never
 * change.
 */
export const CryptoPayoutStatus = Schema.Literals([
  "pending_approval",
  "pending",
  "submitted",
  "confirmed",
  "failed",
  "denied",
  "canceled",
  "expired"
]).annotate({
  description:
    "`pending_approval`, `pending` (held, queued), `submitted` (`txHash` known), then `confirmed` or `failed`; `denied`, `canceled` or `expired` end it unsent.",
  examples: ["confirmed"]
})
export type CryptoPayoutStatus = typeof CryptoPayoutStatus.Type

/** The outbound events of a payout's changes; each carries the payout's view. */
export const CryptoPayoutEventType = Schema.Literals([
  "crypto_payout.created",
  "crypto_payout.approval_required",
  "crypto_payout.submitted",
  "crypto_payout.confirmed",
  "crypto_payout.failed",
  "crypto_payout.denied",
  "crypto_payout.canceled",
  "crypto_payout.expired"
])
export type CryptoPayoutEventType = typeof CryptoPayoutEventType.Type

/** A stablecoin payout of a quote, with its policy decision, its hold and where the rail has it. */
export const CryptoPayout = Schema.Struct({
  id: CryptoPayoutId.pipe(
    Schema.annotateEncoded({
      description: "The payout's id, a UUID.",
      examples: [EXAMPLE_ID]
    })
  ),
  teamId: TeamId,
  mode: Mode,
  status: CryptoPayoutStatus,
  quoteId: CryptoQuoteId.pipe(
    Schema.annotateEncoded({
      description: "The quote paid out, a UUID.",
      examples: [EXAMPLE_ID]
    })
  ),
  ...QuotedTerms,
  /** The spend account held and paid from. */
  accountId: AccountId,
  spendingKeyId: Schema.String,
  decision: SpendDecision.annotate({ description: "What the key's policy decided, and why." }),
  approval: Schema.NullOr(ApprovalView).annotate({
    description: "The human approval when policy routed the payout to a person; null otherwise."
  }),
  holdTransactionId: Schema.NullOr(LedgerTransactionId),
  /** The rail's transaction, known before it is broadcast; null until submitted. */
  txHash: Schema.NullOr(Schema.String).annotate({
    description: "The network transaction's hash; null until submitted.",
    examples: ["0x9f2c4a7e1b3d5f60718293a4b5c6d7e8f9012345678901234567890abcdef1234"]
  }),
  /** Why the rail failed it; null otherwise. */
  failureReason: Schema.NullOr(Schema.String).annotate({
    description: "Why the network transaction failed; null unless `failed`."
  }),
  /** The quote's deadline: a payout awaiting approval past it expires. */
  quoteExpiresAt: Schema.String.annotate({
    description: "The quote's deadline (ISO 8601, UTC): a payout awaiting approval past it expires.",
    examples: ["2026-03-01T12:00:00.000Z"]
  }),
  submittedAt: Schema.NullOr(Schema.String).annotate({
    description: "When the payout was submitted to the network (ISO 8601, UTC); null until then."
  }),
  completedAt: Schema.NullOr(Schema.String).annotate({
    description: "When the payout was confirmed or failed (ISO 8601, UTC); null until then."
  }),
  createdAt: Schema.String.annotate({
    description: "When the payout was made (ISO 8601, UTC).",
    examples: ["2026-03-01T12:00:00.000Z"]
  }),
  updatedAt: Schema.String.annotate({
    description: "When the payout last changed (ISO 8601, UTC).",
    examples: ["2026-03-01T12:00:00.000Z"]
  })
})
export type CryptoPayout = typeof CryptoPayout.Type

/** No payout of this id for the caller's team in its mode. */
export class CryptoPayoutNotFound extends Schema.TaggedError<CryptoPayoutNotFound>()("CryptoPayoutNotFound", {
  id: Schema.String
}) {}

/** The payout is no longer in a status the operation needs (canceling a submitted payout). */
export class CryptoPayoutNotPending extends Schema.TaggedError<CryptoPayoutNotPending>()("CryptoPayoutNotPending", {
  id: Schema.String,
  status: CryptoPayoutStatus
}) {}

/** A payout as its team sees it: the HTTP answers and the events' `data` (never the rail's signed payload). */
export const CryptoPayoutView = Schema.Struct({
  id: CryptoPayout.fields.id,
  object: Schema.Literal("crypto_payout").annotate({ description: "Always `crypto_payout`." }),
  ...Struct.omit(CryptoPayout.fields, ["id", "teamId", "accountId", "spendingKeyId", "holdTransactionId"])
})
export type CryptoPayoutView = typeof CryptoPayoutView.Type

/** The payout as its team sees it. */
export const cryptoPayoutView = ({
  teamId: _,
  accountId: __,
  spendingKeyId: ___,
  holdTransactionId: ____,
  ...p
}: CryptoPayout): CryptoPayoutView => ({ ...p, object: "crypto_payout" })

/** A status change of a payout that does not submit it (submission stores the rail's transaction as well). */
export interface CryptoPayoutTransition {
  readonly status: CryptoPayoutStatus
  readonly failureReason: string | null
  readonly completedAt: string | null
  readonly updatedAt: string
}

/** The payout cannot be made as asked (the credential has no USD spend account); `field` names the input at fault. */
export class CryptoPayoutInvalid extends Schema.TaggedError<CryptoPayoutInvalid>()("CryptoPayoutInvalid", {
  field: Schema.String,
  message: Schema.String
}) {}

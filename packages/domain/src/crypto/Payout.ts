import { Schema } from "effect"
import { ApprovalView } from "../approvals/model.ts"
import { AccountId, LedgerTransactionId, Mode, TeamId } from "../shared/model.ts"
import { SpendDecision } from "../spend/model.ts"
import { CryptoDestinationId } from "./Destination.ts"
import { CryptoAsset, CryptoNetwork } from "./Network.ts"
import { CryptoQuoteId } from "./Quote.ts"

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
])
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
  id: CryptoPayoutId,
  teamId: TeamId,
  mode: Mode,
  status: CryptoPayoutStatus,
  quoteId: CryptoQuoteId,
  destinationId: CryptoDestinationId,
  network: CryptoNetwork,
  asset: CryptoAsset,
  address: Schema.String,
  /** What leaves the spend account, in US cents: the quote's amount, fees included. */
  amount: Schema.Int,
  currency: Schema.Literal("USD"),
  serviceFee: Schema.Int,
  networkFee: Schema.Int,
  amountDelivered: Schema.Int,
  tokenAmount: Schema.String,
  decimals: Schema.Int,
  /** The spend account held and paid from. */
  accountId: AccountId,
  spendingKeyId: Schema.String,
  decision: SpendDecision,
  approval: Schema.NullOr(ApprovalView),
  holdTransactionId: Schema.NullOr(LedgerTransactionId),
  /** The rail's transaction, known before it is broadcast; null until submitted. */
  txHash: Schema.NullOr(Schema.String),
  /** Why the rail failed it; null otherwise. */
  failureReason: Schema.NullOr(Schema.String),
  /** The quote's deadline: a payout awaiting approval past it expires. */
  quoteExpiresAt: Schema.String,
  submittedAt: Schema.NullOr(Schema.String),
  completedAt: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  updatedAt: Schema.String
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
  id: Schema.String,
  object: Schema.Literal("crypto_payout"),
  mode: Mode,
  status: CryptoPayoutStatus,
  quoteId: Schema.String,
  destinationId: Schema.String,
  network: CryptoNetwork,
  asset: CryptoAsset,
  address: Schema.String,
  amount: Schema.Int,
  currency: Schema.Literal("USD"),
  serviceFee: Schema.Int,
  networkFee: Schema.Int,
  amountDelivered: Schema.Int,
  tokenAmount: Schema.String,
  decimals: Schema.Int,
  decision: SpendDecision,
  approval: Schema.NullOr(ApprovalView),
  txHash: Schema.NullOr(Schema.String),
  failureReason: Schema.NullOr(Schema.String),
  quoteExpiresAt: Schema.String,
  submittedAt: Schema.NullOr(Schema.String),
  completedAt: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  updatedAt: Schema.String
})
export type CryptoPayoutView = typeof CryptoPayoutView.Type

/** The payout as its team sees it. */
export const cryptoPayoutView = (p: CryptoPayout): CryptoPayoutView => ({
  id: p.id,
  object: "crypto_payout",
  mode: p.mode,
  status: p.status,
  quoteId: p.quoteId,
  destinationId: p.destinationId,
  network: p.network,
  asset: p.asset,
  address: p.address,
  amount: p.amount,
  currency: p.currency,
  serviceFee: p.serviceFee,
  networkFee: p.networkFee,
  amountDelivered: p.amountDelivered,
  tokenAmount: p.tokenAmount,
  decimals: p.decimals,
  decision: p.decision,
  approval: p.approval,
  txHash: p.txHash,
  failureReason: p.failureReason,
  quoteExpiresAt: p.quoteExpiresAt,
  submittedAt: p.submittedAt,
  completedAt: p.completedAt,
  createdAt: p.createdAt,
  updatedAt: p.updatedAt
})

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

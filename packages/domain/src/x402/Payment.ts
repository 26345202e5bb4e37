import { Schema, Struct } from "effect"
import { ApprovalView } from "../approvals/model.ts"
import { AccountId, EXAMPLE_ID, LedgerTransactionId, Mode, TeamId } from "../shared/model.ts"
import { SpendDecision } from "../spend/model.ts"

const EXAMPLE_ADDRESS = "0x52908400098527886E0F7030069857D2E4169EE7"

/** An x402 payment's id. */
export const X402PaymentId = Schema.String.check(Schema.isUUID()).pipe(Schema.brand("X402PaymentId"))
export type X402PaymentId = typeof X402PaymentId.Type

/**
 * `pending_approval` -> `signed` (held; the authorization handed to the agent) -> `settled` (used on chain: the hold
 * posted) or `expired` (unused past its deadline: the hold released); `denied` (by policy or an approver, nothing
 * signed), `expired` (the approval expired), `canceled`. Final statuses never change.
 */
export const X402PaymentStatus = Schema.Literals([
  "pending_approval",
  "signed",
  "settled",
  "denied",
  "expired",
  "canceled"
]).annotate({
  description:
    "`pending_approval` (waits for a person), `signed` (held; `paymentHeader` is ready), then `settled` (the authorization was used on chain) or `expired` (unused past `authorizationExpiresAt`); `denied` and `canceled` sign nothing.",
  examples: ["signed"]
})
export type X402PaymentStatus = typeof X402PaymentStatus.Type

/** The outbound events of a payment's changes; each carries the payment's view (never its payment header). */
export const X402PaymentEventType = Schema.Literals([
  "x402_payment.created",
  "x402_payment.approval_required",
  "x402_payment.signed",
  "x402_payment.settled",
  "x402_payment.denied",
  "x402_payment.expired",
  "x402_payment.canceled"
])
export type X402PaymentEventType = typeof X402PaymentEventType.Type

/** The EIP-3009 `transferWithAuthorization` the team's wallet signed (integers as decimal strings, `nonce` 32 bytes). */
export const TransferAuthorization = Schema.Struct({
  from: Schema.String.annotate({ description: "The team's wallet address (EIP-55).", examples: [EXAMPLE_ADDRESS] }),
  to: Schema.String.annotate({ description: "The requirement's `payTo` (EIP-55).", examples: [EXAMPLE_ADDRESS] }),
  value: Schema.String.annotate({
    description: "The amount in the token's minor units, a decimal integer string.",
    examples: ["10000"]
  }),
  validAfter: Schema.String.annotate({
    description: "Unix seconds before which the authorization cannot be used.",
    examples: ["1764380000"]
  }),
  validBefore: Schema.String.annotate({
    description: "Unix seconds from which the authorization can no longer be used.",
    examples: ["1764380660"]
  }),
  nonce: Schema.String.annotate({
    description: "32 random bytes, hex: the authorization's one-time id on the token contract.",
    examples: [`0x${"ab".repeat(32)}`]
  })
})
export type TransferAuthorization = typeof TransferAuthorization.Type

/** The header the agent retries the resource with, and its value. */
export const X402PaymentHeader = Schema.Struct({
  name: Schema.Literals(["X-PAYMENT", "PAYMENT-SIGNATURE"]).annotate({
    description: "The header to send: `X-PAYMENT` for x402 v1, `PAYMENT-SIGNATURE` for v2.",
    examples: ["PAYMENT-SIGNATURE"]
  }),
  value: Schema.String.annotate({
    description: "The header's value: the signed payment payload, base64-encoded JSON.",
    examples: ["eyJ4NDAyVmVyc2lvbiI6Mn0="]
  })
})
export type X402PaymentHeader = typeof X402PaymentHeader.Type

/**
 * A payment of an x402 requirement by the team's wallet, with its policy decision, its hold and the authorization
 * signed. `accepted` and `resource` are the requirement and resource as the server sent them: a v2 payload repeats
 * them verbatim.
 */
export const X402Payment = Schema.Struct({
  id: X402PaymentId.pipe(Schema.annotateEncoded({ description: "The payment's id, a UUID.", examples: [EXAMPLE_ID] })),
  teamId: TeamId,
  mode: Mode,
  status: X402PaymentStatus,
  x402Version: Schema.Literals([1, 2]).annotate({ description: "The x402 version the resource answered in." }),
  resourceUrl: Schema.String.annotate({
    description: "The resource paid for.",
    examples: ["https://api.example.com/weather"]
  }),
  merchant: Schema.String.annotate({
    description:
      "The merchant the policy governs the payment as: `x402:<resource origin>:<payTo>` (merchant rules match it).",
    examples: ["x402:https://api.example.com:0x52908400098527886e0f7030069857d2e4169ee7"]
  }),
  network: Schema.String.annotate({
    description: "The network as the requirement named it (`base-sepolia` in v1, `eip155:84532` in v2).",
    examples: ["eip155:84532"]
  }),
  chainId: Schema.Int.annotate({ description: "The network's EVM chain id.", examples: [84532] }),
  asset: Schema.String.annotate({ description: "The token contract paid in (EIP-55).", examples: [EXAMPLE_ADDRESS] }),
  assetSymbol: Schema.String.annotate({ description: "The token's symbol.", examples: ["USDC"] }),
  decimals: Schema.Int.annotate({ description: "The token's decimals (6 for USDC).", examples: [6] }),
  domainName: Schema.String.annotate({
    description: "The token's EIP-712 domain name, from the requirement's `extra.name`.",
    examples: ["USD Coin"]
  }),
  domainVersion: Schema.String.annotate({
    description: "The token's EIP-712 domain version, from the requirement's `extra.version`.",
    examples: ["2"]
  }),
  payTo: Schema.String.annotate({ description: "Who is paid (EIP-55).", examples: [EXAMPLE_ADDRESS] }),
  tokenAmount: Schema.String.annotate({
    description: "What the requirement asks, in the token's minor units, a decimal integer string.",
    examples: ["10000"]
  }),
  amount: Schema.Int.annotate({
    description: "What the budgets count, in US cents at `usdRate`, rounded up (1999 is 19.99 USD).",
    examples: [1]
  }),
  currency: Schema.Literal("USD").annotate({ description: "Always `USD`: stablecoins count in US dollars." }),
  usdRate: Schema.String.annotate({
    description: "The US dollars one token was counted at, a decimal string (stablecoins: `1`).",
    examples: ["1"]
  }),
  maxTimeoutSeconds: Schema.Int.annotate({
    description: "How long the signed authorization stays valid, as the requirement asked.",
    examples: [60]
  }),
  accepted: Schema.Unknown,
  resource: Schema.Unknown,
  accountId: AccountId,
  spendingKeyId: Schema.String,
  decision: SpendDecision.annotate({ description: "What the key's policy decided, and why." }),
  approval: Schema.NullOr(ApprovalView).annotate({
    description: "The human approval when policy routed the payment to a person; null otherwise."
  }),
  holdTransactionId: Schema.NullOr(LedgerTransactionId),
  authorization: Schema.NullOr(TransferAuthorization).annotate({
    description: "The EIP-3009 authorization signed; null until signed."
  }),
  signature: Schema.NullOr(Schema.String),
  authorizationExpiresAt: Schema.NullOr(Schema.String).annotate({
    description: "When the authorization stops being usable (ISO 8601, UTC); null until signed.",
    examples: ["2026-03-01T12:01:00.000Z"]
  }),
  settlementTxHash: Schema.NullOr(Schema.String).annotate({
    description: "The transaction that used the authorization; null until settled (and when it was not seen).",
    examples: ["0x9f2c4a7e1b3d5f60718293a4b5c6d7e8f9012345678901234567890abcdef1234"]
  }),
  signedAt: Schema.NullOr(Schema.String).annotate({
    description: "When the authorization was signed (ISO 8601, UTC); null until then."
  }),
  completedAt: Schema.NullOr(Schema.String).annotate({
    description: "When the payment settled, expired, was denied or canceled (ISO 8601, UTC); null while open."
  }),
  createdAt: Schema.String.annotate({
    description: "When the payment was asked for (ISO 8601, UTC).",
    examples: ["2026-03-01T12:00:00.000Z"]
  }),
  updatedAt: Schema.String.annotate({
    description: "When the payment last changed (ISO 8601, UTC).",
    examples: ["2026-03-01T12:00:00.000Z"]
  })
})
export type X402Payment = typeof X402Payment.Type

/** A payment as its team sees it: the events' `data` and the approvals queue (never the signature). */
export const X402PaymentView = Schema.Struct({
  id: X402Payment.fields.id,
  object: Schema.Literal("x402_payment").annotate({ description: "Always `x402_payment`." }),
  ...Struct.omit(X402Payment.fields, [
    "id",
    "teamId",
    "accountId",
    "spendingKeyId",
    "holdTransactionId",
    "accepted",
    "resource",
    "signature"
  ])
})
export type X402PaymentView = typeof X402PaymentView.Type

/** The payment as its team sees it. */
export const x402PaymentView = ({
  teamId: _,
  accountId: __,
  spendingKeyId: ___,
  holdTransactionId: ____,
  accepted: _____,
  resource: ______,
  signature: _______,
  ...p
}: X402Payment): X402PaymentView => ({ ...p, object: "x402_payment" })

/** A status change of a payment; signing sets the authorization too (`X402PaymentsRepo.sign`). */
export interface X402PaymentTransition {
  readonly status: X402PaymentStatus
  readonly settlementTxHash?: string | null
  readonly completedAt: string | null
  readonly updatedAt: string
}

/** What signing stores on a payment. */
export interface X402Signed {
  readonly authorization: TransferAuthorization
  readonly signature: string
  readonly authorizationExpiresAt: string
  readonly signedAt: string
}

/** No payment of this id for the caller's team in its mode. */
export class X402PaymentNotFound extends Schema.TaggedError<X402PaymentNotFound>()("X402PaymentNotFound", {
  id: Schema.String
}) {}

/** The payment is no longer in a status the operation needs. */
export class X402PaymentNotPending extends Schema.TaggedError<X402PaymentNotPending>()("X402PaymentNotPending", {
  id: Schema.String,
  status: X402PaymentStatus
}) {}

/** The 402 answer cannot be paid as handed in; `field` names the input at fault. */
export class X402PaymentInvalid extends Schema.TaggedError<X402PaymentInvalid>()("X402PaymentInvalid", {
  field: Schema.String,
  message: Schema.String
}) {}

import { Schema } from "effect"
import { ApprovalView } from "../approvals/model.ts"
import { AccountId, EXAMPLE_ID, LedgerTransactionId, Mode, TeamId } from "../shared/model.ts"
import { SpendDecision } from "../spend/model.ts"

/** A book transfer's id. */
export const TransferId = Schema.String.check(Schema.isUUID()).pipe(Schema.brand("TransferId"))
export type TransferId = typeof TransferId.Type

/**
 * `pending_approval` (the sender's policy routed it to a human) -> `pending_acceptance` -> `completed`, `declined`,
 * `canceled` or `expired`; `denied` by policy or by the approver. Final statuses never change.
 */
export const TransferStatus = Schema.Literals([
  "pending_approval",
  "pending_acceptance",
  "completed",
  "declined",
  "canceled",
  "expired",
  "denied"
]).annotate({
  description:
    "`pending_approval` (a person of the sender's team decides), `pending_acceptance` (the recipient decides), then `completed`, `declined`, `canceled`, `expired` or `denied`; final statuses never change.",
  examples: ["completed"]
})
export type TransferStatus = typeof TransferStatus.Type

/** The outbound events of a transfer's changes; each carries the transfer as the receiving team sees it (`TransferView`). */
export const TransferEventType = Schema.Literals([
  "transfer.created",
  "transfer.approval_required",
  "transfer.denied",
  "transfer.completed",
  "transfer.declined",
  "transfer.canceled",
  "transfer.expired"
])
export type TransferEventType = typeof TransferEventType.Type

/** The statuses a transfer can still leave. */
export const OPEN_TRANSFER_STATUSES = [
  "pending_approval",
  "pending_acceptance"
] as const satisfies ReadonlyArray<TransferStatus>

/** The longest memo a transfer carries. */
export const TRANSFER_MEMO_MAX_LENGTH = 500

/** Which side of a transfer a team is on. */
export const TransferDirection = Schema.Literals(["outgoing", "incoming"]).annotate({
  description: "Which side of the transfer your team is on: `outgoing` (sent) or `incoming` (received).",
  examples: ["outgoing"]
})
export type TransferDirection = typeof TransferDirection.Type

/** A book transfer between two teams of one mode, in USD, with its sender's policy decision and its money. */
export const Transfer = Schema.Struct({
  id: TransferId,
  mode: Mode,
  status: TransferStatus,
  amount: Schema.Int,
  currency: Schema.Literal("USD"),
  memo: Schema.NullOr(Schema.String),
  senderTeamId: TeamId,
  senderAddress: Schema.String,
  /** The sender's spend account the amount is held on and paid from. */
  senderAccountId: AccountId,
  /** The sender's credential, whose budgets count the transfer. */
  spendingKeyId: Schema.String,
  recipientTeamId: TeamId,
  recipientAddress: Schema.String,
  /** The payment code the transfer was made to; null when made to an address. */
  paymentCode: Schema.NullOr(Schema.String),
  decision: SpendDecision,
  approval: Schema.NullOr(ApprovalView),
  /** The hold on the sender's account; null when denied. */
  holdTransactionId: Schema.NullOr(LedgerTransactionId),
  /** When a transfer pending acceptance expires; null before it awaits acceptance and after it is final. */
  expiresAt: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  updatedAt: Schema.String
})
export type Transfer = typeof Transfer.Type

/** A transfer as one of its teams sees it: the HTTP answers and the events' `data`. */
export const TransferView = Schema.Struct({
  id: Schema.String.annotate({
    description: "The transfer's id, a UUID.",
    examples: [EXAMPLE_ID]
  }),
  object: Schema.Literal("transfer").annotate({ description: "Always `transfer`." }),
  mode: Mode,
  direction: TransferDirection,
  status: TransferStatus,
  amount: Schema.Int.annotate({ description: "The amount in USD minor units (1999 is 19.99 USD).", examples: [1999] }),
  currency: Schema.Literal("USD").annotate({ description: "Always `USD`: book transfers are in USD only." }),
  memo: Schema.NullOr(Schema.String).annotate({
    description: "The sender's note to the recipient; null when none.",
    examples: ["Invoice 2026-014"]
  }),
  from: Schema.Struct({
    address: Schema.String.annotate({ description: "The sender's receive address.", examples: ["acme-7k2q@svc"] })
  }).annotate({ description: "The sending team." }),
  to: Schema.Struct({
    address: Schema.String.annotate({ description: "The recipient's receive address.", examples: ["globex-p4m9@svc"] }),
    paymentCode: Schema.NullOr(Schema.String).annotate({
      description: "The payment code the transfer was made to; null when made to an address.",
      examples: ["PC-7H3K9QWZ"]
    })
  }).annotate({ description: "The receiving team." }),
  /** The sender's decision and approval; only the sender sees them. */
  decision: Schema.NullOr(SpendDecision).annotate({
    description: "The sender's policy decision; null for the recipient, who does not see it."
  }),
  approval: Schema.NullOr(ApprovalView).annotate({
    description:
      "The sender's approval when policy routed the transfer to a person; null otherwise and for the recipient."
  }),
  expiresAt: Schema.NullOr(Schema.String).annotate({
    description:
      "When a transfer pending acceptance expires (ISO 8601, UTC); null before it awaits acceptance and after it is final.",
    examples: ["2026-03-01T12:00:00.000Z"]
  }),
  createdAt: Schema.String.annotate({
    description: "When the transfer was sent (ISO 8601, UTC).",
    examples: ["2026-03-01T12:00:00.000Z"]
  }),
  updatedAt: Schema.String.annotate({
    description: "When the transfer last changed (ISO 8601, UTC).",
    examples: ["2026-03-01T12:00:00.000Z"]
  })
})
export type TransferView = typeof TransferView.Type

/**
 * Whether the transfer was ever offered to its recipient, that is, it waited for acceptance: policy did not deny it
 * and any approval it needed was given. Until then it concerns its sender alone.
 */
export const offeredToRecipient = (t: Pick<Transfer, "status" | "approval">): boolean =>
  t.status !== "denied" && (t.approval === null || t.approval.status === "approved")

/** Which side `teamId` is on, as far as it may see the transfer; none when it is on neither or not offered it yet. */
export const directionOf = (
  t: Pick<Transfer, "senderTeamId" | "recipientTeamId" | "status" | "approval">,
  teamId: string
): TransferDirection | undefined =>
  t.senderTeamId === teamId
    ? "outgoing"
    : t.recipientTeamId === teamId && offeredToRecipient(t)
      ? "incoming"
      : undefined

/** The transfer as the team on side `direction` sees it. */
export const transferView = (t: Transfer, direction: TransferDirection): TransferView => ({
  id: t.id,
  object: "transfer",
  mode: t.mode,
  direction,
  status: t.status,
  amount: t.amount,
  currency: t.currency,
  memo: t.memo,
  from: { address: t.senderAddress },
  to: { address: t.recipientAddress, paymentCode: t.paymentCode },
  decision: direction === "outgoing" ? t.decision : null,
  approval: direction === "outgoing" ? t.approval : null,
  expiresAt: t.expiresAt,
  createdAt: t.createdAt,
  updatedAt: t.updatedAt
})

/** A status change of an open transfer. */
export interface TransferTransition {
  readonly status: TransferStatus
  readonly expiresAt: string | null
  readonly updatedAt: string
}

/** No transfer of this id on either side of the caller's team, in its mode. */
export class TransferNotFound extends Schema.TaggedError<TransferNotFound>()("TransferNotFound", {
  id: Schema.String
}) {}

/** A new transfer is malformed or impossible; `field` names the input at fault. */
export class TransferInvalid extends Schema.TaggedError<TransferInvalid>()("TransferInvalid", {
  field: Schema.String,
  message: Schema.String
}) {}

/** The transfer is no longer in a status the operation needs. */
export class TransferNotPending extends Schema.TaggedError<TransferNotPending>()("TransferNotPending", {
  id: Schema.String,
  status: TransferStatus
}) {}

/** The caller is on the wrong side of the transfer for the operation (a sender accepting, a recipient canceling). */
export class TransferWrongParty extends Schema.TaggedError<TransferWrongParty>()("TransferWrongParty", {
  id: Schema.String,
  message: Schema.String
}) {}

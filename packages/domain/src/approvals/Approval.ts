import { Schema } from "effect"
import { EXAMPLE_ID, Mode, TeamId } from "../shared/model.ts"
import { ApprovalProgress, ApprovalStep, approvalProgress, RequiredApprovers } from "./ApprovalChain.ts"

/** An approval's id. */
export const ApprovalId = Schema.String.check(Schema.isUUID()).pipe(Schema.brand("ApprovalId"))
export type ApprovalId = typeof ApprovalId.Type

/** `pending` until a person approves or denies it, it expires, or its subject is canceled; every other status is final. */
export const ApprovalStatus = Schema.Literals(["pending", "approved", "denied", "expired", "canceled"])
export type ApprovalStatus = typeof ApprovalStatus.Type

/** What an approval decides: spend requests, transfers and checkout intents; payouts will share the same object. */
export const ApprovalSubjectType = Schema.Literals([
  "spend_request",
  "transfer",
  "checkout_intent",
  "crypto_payout",
  "x402_payment"
])
export type ApprovalSubjectType = typeof ApprovalSubjectType.Type

/**
 * The approval of a request that crossed its approval threshold, with its own expiry, its quorum and every member's step;
 * `decidedBy` is the member whose step ended it.
 */
export const Approval = Schema.Struct({
  id: ApprovalId,
  teamId: TeamId,
  mode: Mode,
  subjectType: ApprovalSubjectType,
  subjectId: Schema.String,
  status: ApprovalStatus,
  expiresAt: Schema.String,
  decidedAt: Schema.NullOr(Schema.String),
  /** The user who approved or denied; null while pending and for expiries and cancellations. */
  decidedBy: Schema.NullOr(Schema.String),
  note: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  updatedAt: Schema.String,
  /** Who must approve and how many (the request's tier of the team's approval chain when it was made). */
  approvers: RequiredApprovers,
  /** The credential that made the request; null for approvals made before approval chains. */
  spendingKeyId: Schema.NullOr(Schema.String),
  /** The member who may not be the only approver (the key's creator, above the first tier); null when none. */
  separateFrom: Schema.NullOr(Schema.String),
  /** Every member's step, in the order recorded. */
  decisions: Schema.Array(ApprovalStep)
})
export type Approval = typeof Approval.Type

/** An approval as clients see it: inside its subject (a spend request's `approval`) and in the approvals queue. */
export const ApprovalView = Schema.Struct({
  id: Schema.String.annotate({
    description: "The approval's id, a UUID.",
    examples: [EXAMPLE_ID]
  }),
  status: ApprovalStatus.annotate({
    description: "`pending` until the quorum approves, a member denies, it expires or its subject is canceled."
  }),
  expiresAt: Schema.String.annotate({
    description: "When a pending approval expires (ISO 8601, UTC).",
    examples: ["2026-03-01T12:00:00.000Z"]
  }),
  decidedAt: Schema.NullOr(Schema.String).annotate({
    description: "When the approval ended (ISO 8601, UTC); null while pending."
  }),
  decidedBy: Schema.NullOr(Schema.String).annotate({
    description: "The member whose step ended it (a user id); null while pending and for expiries and cancellations."
  }),
  decidedByName: Schema.NullOr(Schema.String).annotate({
    description:
      "The name of the member whose step ended it, else their e-mail, for people to read; null when `decidedBy` is.",
    examples: ["Ada Lovelace"]
  }),
  note: Schema.NullOr(Schema.String).annotate({ description: "The deciding member's note; null when none." }),
  /** The quorum: how many approvals are required from which roles, how many were received, and every step. */
  approvals: ApprovalProgress.annotate({
    description: "The quorum: how many approvals are required from which roles, how many were received, and every step."
  })
})
export type ApprovalView = typeof ApprovalView.Type

/** The view of an approval, its decider named `decidedByName` (null while nobody decided it). */
export const approvalView = (approval: Approval, decidedByName: string | null): ApprovalView => ({
  id: approval.id,
  status: approval.status,
  expiresAt: approval.expiresAt,
  decidedAt: approval.decidedAt,
  decidedBy: approval.decidedBy,
  decidedByName: approval.decidedBy === null ? null : decidedByName,
  note: approval.note,
  approvals: approvalProgress(approval.approvers, approval.decisions)
})

/** How a pending approval ends. */
export interface ApprovalDecision {
  readonly status: Exclude<ApprovalStatus, "pending">
  readonly decidedAt: string
  readonly decidedBy: string | null
  readonly note: string | null
}

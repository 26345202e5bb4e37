import { Schema } from "effect"
import { Mode, TeamId } from "../shared/index.ts"

/** An approval's id. */
export const ApprovalId = Schema.String.check(Schema.isUUID()).pipe(Schema.brand("ApprovalId"))
export type ApprovalId = typeof ApprovalId.Type

/** `pending` until a person approves or denies it, it expires, or its subject is canceled; every other status is final. */
export const ApprovalStatus = Schema.Literals(["pending", "approved", "denied", "expired", "canceled"])
export type ApprovalStatus = typeof ApprovalStatus.Type

/** What an approval decides: spend requests today; transfers, checkout intents and payouts share the same object. */
export const ApprovalSubjectType = Schema.Literals(["spend_request"])
export type ApprovalSubjectType = typeof ApprovalSubjectType.Type

/** A person's decision on a request that crossed its approval threshold, with its own expiry and decider. */
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
  updatedAt: Schema.String
})
export type Approval = typeof Approval.Type

/** The approval as its subject shows it (a spend request's `approval` field). */
export const ApprovalSummary = Approval.mapFields(({ id, status, expiresAt, decidedAt, decidedBy, note }) => ({
  id,
  status,
  expiresAt,
  decidedAt,
  decidedBy,
  note
}))
export type ApprovalSummary = typeof ApprovalSummary.Type

/** The summary of an approval. */
export const approvalSummary = (approval: Approval): ApprovalSummary => ({
  id: approval.id,
  status: approval.status,
  expiresAt: approval.expiresAt,
  decidedAt: approval.decidedAt,
  decidedBy: approval.decidedBy,
  note: approval.note
})

/** How a pending approval ends. */
export interface ApprovalDecision {
  readonly status: Exclude<ApprovalStatus, "pending">
  readonly decidedAt: string
  readonly decidedBy: string | null
  readonly note: string | null
}

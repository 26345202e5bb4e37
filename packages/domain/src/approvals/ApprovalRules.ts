import { Schema } from "effect"
import type { Role } from "../identity/model.ts"
import { millisOfIso } from "../shared/model.ts"
import type { Approval } from "./Approval.ts"

/** Only team owners and admins decide approvals. */
export class ApproverNotAllowed extends Schema.TaggedError<ApproverNotAllowed>()("ApproverNotAllowed", {
  message: Schema.String
}) {}

/** No approval of a spend request has this id in the approver's team (or the approver acts for no team). */
export class ApprovalNotFound extends Schema.TaggedError<ApprovalNotFound>()("ApprovalNotFound", {
  approvalId: Schema.String
}) {}

/** Whether a member with this role (none: not a member) may approve or deny the team's approvals. */
export const mayDecideApprovals = (role: Role | null): boolean => role === "owner" || role === "admin"

/** Whether a pending approval is past its expiry at `nowMillis`. */
export const isApprovalDue = (approval: Pick<Approval, "status" | "expiresAt">, nowMillis: number): boolean =>
  approval.status === "pending" && millisOfIso(approval.expiresAt) <= nowMillis

import { Effect, Option } from "effect"
import type { Role } from "../identity/model.ts"
import type { TeamId } from "../shared/model.ts"
import { ApprovalId, type ApprovalSubjectType } from "./Approval.ts"
import { ApprovalNotFound, ApproverNotAllowed, mayDecideApprovals } from "./ApprovalRules.ts"
import type { ApprovalsRepo } from "./ApprovalsRepo.ts"

/**
 * The approval `approvalId` of a `subjectType` request in the approver's team, when the approver may decide it: not
 * found when the approver acts for no team or its team holds no such approval, not allowed when the approver's role is
 * not among the approval's roles (owners and admins unless the team's approval chain says otherwise).
 */
export const decidableApproval = (
  approvals: ApprovalsRepo["Service"],
  approver: { readonly teamId: TeamId | null; readonly role: Role | null },
  approvalId: string,
  subjectType: ApprovalSubjectType
) =>
  Effect.gen(function* () {
    const teamId = approver.teamId
    if (teamId === null) return yield* new ApprovalNotFound({ approvalId })
    if (approver.role === null) {
      return yield* new ApproverNotAllowed({ message: "only team owners and admins decide approvals" })
    }
    const approval = yield* approvals.find(teamId, ApprovalId.make(approvalId))
    if (Option.isNone(approval) || approval.value.subjectType !== subjectType) {
      return yield* new ApprovalNotFound({ approvalId })
    }
    const roles = approval.value.approvers.roles
    if (!roles.includes(approver.role)) {
      return yield* new ApproverNotAllowed({
        message:
          roles.length === 2 && mayDecideApprovals(roles[0] ?? null) && mayDecideApprovals(roles[1] ?? null)
            ? "only team owners and admins decide approvals"
            : `only members with role ${roles.join(" or ")} decide this approval`
      })
    }
    return approval.value
  })

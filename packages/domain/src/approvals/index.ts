export * from "./Approval.ts"
export * from "./ApprovalRules.ts"
export * from "./ApprovalsRepo.ts"

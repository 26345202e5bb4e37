export * from "./ApprovalLifecycle.ts"
export * from "./ApprovalsRepo.ts"
export * from "./DecidableApproval.ts"
export * from "./model.ts"

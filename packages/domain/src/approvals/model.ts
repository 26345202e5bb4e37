/** The approvals context's shapes and pure rules: no services, so clients may import them. */
export * from "./Approval.ts"
export * from "./ApprovalChain.ts"
export * from "./ApprovalRules.ts"

export * from "./GovernedApprovals.ts"
export * from "./GovernedDecision.ts"
export * from "./GovernedLifecycle.ts"
export * from "./model.ts"

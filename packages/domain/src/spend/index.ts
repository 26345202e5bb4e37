export * from "./model.ts"
export * from "./SpendDecision.ts"
export * from "./SpendRequests.ts"
export * from "./SpendRequestsRepo.ts"

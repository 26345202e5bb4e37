export * from "./ApprovalsRepo.ts"
export * from "./model.ts"

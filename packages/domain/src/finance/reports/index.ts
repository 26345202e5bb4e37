export * from "./model.ts"
export * from "./Reports.ts"
export * from "./ReportsRepo.ts"

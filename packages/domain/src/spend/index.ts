export * from "./SpendPolicy.ts"
export * from "./SpendRequests.ts"

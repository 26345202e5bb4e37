export * from "./SpendRequestsApi.ts"

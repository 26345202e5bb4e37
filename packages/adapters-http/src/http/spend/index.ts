export * from "./SpendRequestsHttp.ts"

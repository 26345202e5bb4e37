export * from "./ApiError.ts"
export * from "./Client.ts"
export * from "./PromiseClient.ts"
export * from "./RetryPolicy.ts"

export * from "./Idempotency.ts"
export * from "./SystemApi.ts"

export * from "./Events.ts"
export * from "./Idempotency.ts"
export * from "./RateLimits.ts"

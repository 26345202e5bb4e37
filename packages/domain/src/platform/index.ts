export * from "./Events.ts"
export * from "./Idempotency.ts"
export * from "./Mailer.ts"
export * from "./RateLimits.ts"

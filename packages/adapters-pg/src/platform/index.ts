import { Layer } from "effect"
import { EventOutboxPg } from "./EventOutboxPg.ts"
import { IdempotencyStorePg } from "./IdempotencyStorePg.ts"
import { RateLimiterPg } from "./RateLimiterPg.ts"

export * from "./EventOutboxPg.ts"
export * from "./IdempotencyStorePg.ts"
export * from "./JobsLeaderLockPg.ts"
export * from "./RateLimiterPg.ts"

/** The platform context's ports on Postgres. */
export const PlatformPortsPg = Layer.mergeAll(EventOutboxPg, IdempotencyStorePg, RateLimiterPg)

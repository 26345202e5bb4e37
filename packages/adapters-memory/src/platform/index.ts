import { Layer } from "effect"
import { EventOutboxMemory } from "./EventOutboxMemory.ts"
import { IdempotencyStoreMemory } from "./IdempotencyStoreMemory.ts"
import { RateLimiterMemory } from "./RateLimiterMemory.ts"

export * from "./EventOutboxMemory.ts"
export * from "./IdempotencyStoreMemory.ts"
export * from "./RateLimiterMemory.ts"

/** The platform context's ports on the in-memory store. */
export const PlatformPortsMemory = Layer.mergeAll(EventOutboxMemory, IdempotencyStoreMemory, RateLimiterMemory)
export * from "./MailerMemory.ts"

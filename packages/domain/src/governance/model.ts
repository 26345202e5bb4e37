/** The governance kernel's shapes and pure rules: no services, so clients may import them. */

export * from "./GovernedAsk.ts"
export * from "./GovernedRepo.ts"

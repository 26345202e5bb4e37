/** The crypto context's shapes and pure rules: no services, so clients may import them. */
export * from "./Destination.ts"
export * from "./Network.ts"
export * from "./Payout.ts"
export * from "./Quote.ts"

/** The crypto context's shapes and pure rules: no services, so clients may import them. */
export * from "./Address.ts"
export * from "./Destination.ts"
export * from "./Fees.ts"
export * from "./Network.ts"
export * from "./Payout.ts"
export * from "./Quote.ts"
export * from "./Views.ts"

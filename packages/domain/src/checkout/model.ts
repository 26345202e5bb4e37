/** The checkout context's shapes and pure rules: no services, so clients may import them. */
export * from "./Card.ts"
export * from "./CardAuthorization.ts"
export * from "./CardEventRefusal.ts"
export * from "./CheckoutIntent.ts"

export * from "./CardAuthorizations.ts"
export * from "./Checkout.ts"
export * from "./CheckoutRepos.ts"
export * from "./model.ts"

export * from "./CheckoutTestTools.ts"
export * from "./CheckoutTools.ts"

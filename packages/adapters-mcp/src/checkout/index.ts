export * from "./CheckoutTools.ts"

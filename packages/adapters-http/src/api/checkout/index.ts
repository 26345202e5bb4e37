export * from "./CheckoutApi.ts"
export * from "./CheckoutTestHelpersApi.ts"

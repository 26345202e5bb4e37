export * from "./CheckoutHttp.ts"
export * from "./CheckoutTestHelpersHttp.ts"

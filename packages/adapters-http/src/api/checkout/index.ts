export * from "./CheckoutApi.ts"

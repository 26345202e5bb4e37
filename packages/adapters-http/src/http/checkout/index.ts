export * from "./CheckoutHttp.ts"

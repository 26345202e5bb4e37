/** The transfers context's shapes and pure rules: no services, so clients may import them. */
export * from "./PaymentCode.ts"
export * from "./ReceiveAddress.ts"
export * from "./Transfer.ts"

/** The x402 context's shapes and pure rules: no services, so clients may import them. */
export * from "./Header.ts"
export * from "./Network.ts"
export * from "./Payment.ts"
export * from "./Requirement.ts"

export * from "./crypto/index.ts"
export * from "./x402/index.ts"

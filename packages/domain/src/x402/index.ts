export * from "./model.ts"
export * from "./Ports.ts"
export * from "./X402Payments.ts"

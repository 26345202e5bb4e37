export * from "./X402SignerEvm.ts"
export * from "./X402SettlementsEvm.ts"

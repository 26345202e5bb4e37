export * from "./X402SettlementsEvm.ts"
export * from "./X402SignerEvm.ts"

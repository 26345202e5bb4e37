export * from "./TransferTools.ts"

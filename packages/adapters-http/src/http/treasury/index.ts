export * from "./TreasuryHttp.ts"

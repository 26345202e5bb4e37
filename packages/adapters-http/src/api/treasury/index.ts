export * from "./TreasuryApi.ts"

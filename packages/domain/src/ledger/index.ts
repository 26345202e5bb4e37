export * from "./Ledger.ts"
export * from "./Posting.ts"

/** The ledger context's shapes, pure rules and client views: no services, so clients may import them. */
export * from "./Accounts.ts"
export * from "./LedgerViews.ts"
export * from "./Posting.ts"
export * from "./Transactions.ts"

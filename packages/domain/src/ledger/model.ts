/** The ledger context's client views: no services, so clients may import them. */
export * from "./LedgerViews.ts"

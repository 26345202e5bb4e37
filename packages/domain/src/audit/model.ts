/** The audit context's shapes and pure rules: no services, so clients may import them. */
export * from "./AuditEntry.ts"

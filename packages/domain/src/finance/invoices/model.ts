/** The invoices context's shapes and pure rules: no services, so clients may import them. */
export * from "./Invoice.ts"
export * from "./InvoiceErrors.ts"
export * from "./InvoiceSummary.ts"

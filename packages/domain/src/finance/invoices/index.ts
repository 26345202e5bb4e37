export * from "./InvoicePorts.ts"
export * from "./Invoices.ts"
export * from "./InvoicesRepo.ts"
export * from "./model.ts"

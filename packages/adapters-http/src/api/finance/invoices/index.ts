export * from "./InvoiceDownloadApi.ts"
export * from "./InvoicePaymentsApi.ts"
export * from "./InvoicesApi.ts"

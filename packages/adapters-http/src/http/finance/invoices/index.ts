export * from "./InvoiceDownloadHttp.ts"
export * from "./InvoicePaymentsHttp.ts"
export * from "./InvoiceRendererPdf.ts"
export * from "./InvoicesHttp.ts"

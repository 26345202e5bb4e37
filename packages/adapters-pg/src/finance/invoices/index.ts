import { InvoicesRepoPg } from "./InvoicesRepoPg.ts"

export * from "./InvoicesRepoPg.ts"

/** The invoices context's ports on Postgres. */
export const InvoicesPortsPg = InvoicesRepoPg

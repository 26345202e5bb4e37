import { InvoicesRepoMemory } from "./InvoicesRepoMemory.ts"

export * from "./InvoicesRepoMemory.ts"
export * from "./SimulatedPaymentsProvider.ts"

/** The invoices context's ports on the in-memory store (the payments provider is not storage: `SimulatedPaymentsProvider`). */
export const InvoicesPortsMemory = InvoicesRepoMemory

import { CustomerCountsRepoMemory, CustomersRepoMemory } from "./CustomersRepoMemory.ts"

export * from "./CustomersRepoMemory.ts"

/** The customers context's ports on the in-memory store (the counts read invoices and projects, built above them). */
export const CustomersPortsMemory = CustomersRepoMemory
export const CustomerCountsPortsMemory = CustomerCountsRepoMemory

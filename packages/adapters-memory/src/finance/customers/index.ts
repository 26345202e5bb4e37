import { CustomersRepoMemory } from "./CustomersRepoMemory.ts"

export * from "./CustomersRepoMemory.ts"

/** The customers context's ports on the in-memory store. */
export const CustomersPortsMemory = CustomersRepoMemory

import { ReportsRepoMemory } from "./ReportsRepoMemory.ts"

export * from "./ReportsRepoMemory.ts"

/** The reports context's ports on the in-memory store (reading the transactions, categories and bank accounts it holds). */
export const ReportsPortsMemory = ReportsRepoMemory

import { Layer } from "effect"
import { LedgerRepoMemory } from "./LedgerRepoMemory.ts"

export * from "./LedgerRepoMemory.ts"

/** The ledger context's ports on the in-memory store. */
export const LedgerPortsMemory = Layer.mergeAll(LedgerRepoMemory)

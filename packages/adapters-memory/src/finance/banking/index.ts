import { Layer } from "effect"
import { BankConnectionsRepoMemory } from "./BankConnectionsRepoMemory.ts"

export * from "./BankConnectionsRepoMemory.ts"

/** The banking context's ports on the in-memory store. */
export const BankingPortsMemory = Layer.mergeAll(BankConnectionsRepoMemory)

import { Layer } from "effect"
import { BankAccountsRepoMemory } from "./BankAccountsRepoMemory.ts"
import { BankConnectionsRepoMemory } from "./BankConnectionsRepoMemory.ts"

export * from "./BankAccountsRepoMemory.ts"
export * from "./BankConnectionsRepoMemory.ts"

/** The banking context's ports on the in-memory store. */
export const BankingPortsMemory = Layer.mergeAll(BankConnectionsRepoMemory, BankAccountsRepoMemory)

import { Layer } from "effect"
import { CategoriesRepoMemory } from "./CategoriesRepoMemory.ts"

export * from "./CategoriesRepoMemory.ts"

/** The transactions context's ports on the in-memory store. */
export const TransactionsPortsMemory = Layer.mergeAll(CategoriesRepoMemory)

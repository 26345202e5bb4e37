import { Layer } from "effect"
import { BankAccountsRepoMemory, BankConnectionsRepoMemory } from "../banking/index.ts"
import { TagsRepoMemory } from "../tags/index.ts"
import { CategoriesRepoMemory } from "./CategoriesRepoMemory.ts"
import { TransactionsRepoMemory } from "./TransactionsRepoMemory.ts"

export * from "./CategoriesRepoMemory.ts"
export * from "./TransactionsRepoMemory.ts"

/**
 * The transactions context's ports on the in-memory store. Transactions read categories, tags and accounts through
 * their ports; the layers are the ones the other contexts export, so one build holds one copy of each.
 */
export const TransactionsPortsMemory = Layer.mergeAll(
  CategoriesRepoMemory,
  TransactionsRepoMemory.pipe(
    Layer.provide(
      Layer.mergeAll(CategoriesRepoMemory, TagsRepoMemory, BankAccountsRepoMemory, BankConnectionsRepoMemory)
    )
  )
)

import { Layer } from "effect"
import { TransactionsPortsMemory } from "../transactions/index.ts"
import { DocumentsRepoMemory } from "./DocumentsRepoMemory.ts"
import { InboxItemsRepoMemory } from "./InboxItemsRepoMemory.ts"

export * from "./DocumentsRepoMemory.ts"
export * from "./InboxItemsRepoMemory.ts"

/**
 * The documents context's ports on the in-memory store. Inbox items read their matches through the transactions
 * port; the layer is the one that context exports, so one build holds one copy.
 */
export const DocumentsPortsMemory = Layer.mergeAll(
  InboxItemsRepoMemory.pipe(Layer.provide(TransactionsPortsMemory)),
  DocumentsRepoMemory
)

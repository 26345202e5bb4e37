import { Layer } from "effect"
import { DocumentsRepoMemory } from "./DocumentsRepoMemory.ts"
import { InboxItemsRepoMemory } from "./InboxItemsRepoMemory.ts"

export * from "./DocumentsRepoMemory.ts"
export * from "./InboxItemsRepoMemory.ts"

/** The documents context's ports on the in-memory store. */
export const DocumentsPortsMemory = Layer.mergeAll(InboxItemsRepoMemory, DocumentsRepoMemory)

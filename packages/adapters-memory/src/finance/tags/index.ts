import { Layer } from "effect"
import { TagsRepoMemory } from "./TagsRepoMemory.ts"

export * from "./TagsRepoMemory.ts"

/** The tags context's ports on the in-memory store. */
export const TagsPortsMemory = Layer.mergeAll(TagsRepoMemory)

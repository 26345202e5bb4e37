import { Layer } from "effect"
import { ActivityRepoMemory } from "./ActivityRepoMemory.ts"

export * from "./ActivityRepoMemory.ts"

/** The activity context's ports on the in-memory store (over the other contexts' ports). */
export const ActivityPortsMemory = Layer.mergeAll(ActivityRepoMemory)

import { Layer } from "effect"
import { SpendRequestsRepoMemory } from "./SpendRequestsRepoMemory.ts"

export * from "./SpendRequestsRepoMemory.ts"

/** The spend context's ports on the in-memory store. */
export const SpendPortsMemory = Layer.mergeAll(SpendRequestsRepoMemory)

import { Layer } from "effect"
import { SpendFreezesRepoMemory } from "./SpendFreezesRepoMemory.ts"
import { SpendRequestsRepoMemory } from "./SpendRequestsRepoMemory.ts"

export * from "./SpendFreezesRepoMemory.ts"
export * from "./SpendRequestsRepoMemory.ts"

/** The spend context's ports on the in-memory store. */
export const SpendPortsMemory = Layer.mergeAll(SpendRequestsRepoMemory, SpendFreezesRepoMemory)

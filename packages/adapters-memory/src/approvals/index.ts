import { Layer } from "effect"
import { ApprovalsRepoMemory } from "./ApprovalsRepoMemory.ts"

export * from "./ApprovalsRepoMemory.ts"

/** The approvals context's ports on the in-memory store. */
export const ApprovalsPortsMemory = Layer.mergeAll(ApprovalsRepoMemory)

import { Layer } from "effect"
import { UsersRepoMemory } from "../identity/index.ts"
import { ApprovalsRepoMemory } from "./ApprovalsRepoMemory.ts"

export * from "./ApprovalsRepoMemory.ts"
export * from "./ApprovalViews.ts"

/** The approvals context's ports on the in-memory store. */
export const ApprovalsPortsMemory = Layer.mergeAll(ApprovalsRepoMemory)

/** What reading an approval's view takes in memory: the approvals, and the users who decide them (`approvalViews`). */
export const ApprovalViewsMemory = Layer.mergeAll(ApprovalsRepoMemory, UsersRepoMemory)

import { Layer } from "effect"
import { ApprovalsRepoPg } from "./ApprovalsRepoPg.ts"

export * from "./ApprovalsRepoPg.ts"

/** The approvals context's ports on Postgres. */
export const ApprovalsPortsPg = Layer.mergeAll(ApprovalsRepoPg)

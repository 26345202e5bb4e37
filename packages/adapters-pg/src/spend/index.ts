import { Layer } from "effect"
import { SpendRequestsRepoPg } from "./SpendRequestsRepoPg.ts"

export * from "./SpendRequestsRepoPg.ts"

/** The spend context's ports on Postgres. */
export const SpendPortsPg = Layer.mergeAll(SpendRequestsRepoPg)

import { Layer } from "effect"
import { SpendFreezesRepoPg } from "./SpendFreezesRepoPg.ts"
import { SpendRequestsRepoPg } from "./SpendRequestsRepoPg.ts"

export * from "./SpendFreezesRepoPg.ts"
export * from "./SpendRequestsRepoPg.ts"

/** The spend context's ports on Postgres. */
export const SpendPortsPg = Layer.mergeAll(SpendRequestsRepoPg, SpendFreezesRepoPg)

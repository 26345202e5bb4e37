import { Layer } from "effect"
import { ActivityRepoPg } from "./ActivityRepoPg.ts"

export * from "./ActivityRepoPg.ts"

/** The activity context's ports on Postgres. */
export const ActivityPortsPg = Layer.mergeAll(ActivityRepoPg)

import { Layer } from "effect"
import { ReportsRepoPg } from "./ReportsRepoPg.ts"

export * from "./ReportsRepoPg.ts"

/** The reports context's ports on Postgres. */
export const ReportsPortsPg = Layer.mergeAll(ReportsRepoPg)

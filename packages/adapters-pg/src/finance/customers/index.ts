import { Layer } from "effect"
import { CustomerCountsRepoPg, CustomersRepoPg } from "./CustomersRepoPg.ts"

export * from "./CustomersRepoPg.ts"

/** The customers context's ports on Postgres. */
export const CustomersPortsPg = Layer.mergeAll(CustomersRepoPg, CustomerCountsRepoPg)

import { Layer } from "effect"
import { CategoriesRepoPg } from "./CategoriesRepoPg.ts"

export * from "./CategoriesRepoPg.ts"

/** The transactions context's ports on Postgres. */
export const TransactionsPortsPg = Layer.mergeAll(CategoriesRepoPg)

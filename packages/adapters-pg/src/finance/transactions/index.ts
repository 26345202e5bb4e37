import { Layer } from "effect"
import { CategoriesRepoPg } from "./CategoriesRepoPg.ts"
import { TransactionsRepoPg } from "./TransactionsRepoPg.ts"

export * from "./CategoriesRepoPg.ts"
export * from "./TransactionsRepoPg.ts"

/** The transactions context's ports on Postgres. */
export const TransactionsPortsPg = Layer.mergeAll(CategoriesRepoPg, TransactionsRepoPg)

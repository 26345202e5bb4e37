import { Layer } from "effect"
import { LedgerRepoPg } from "./LedgerRepoPg.ts"

export * from "./LedgerRepoPg.ts"

/** The ledger context's ports on Postgres. */
export const LedgerPortsPg = Layer.mergeAll(LedgerRepoPg)

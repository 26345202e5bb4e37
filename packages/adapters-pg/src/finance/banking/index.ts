import { Layer } from "effect"
import { BankConnectionsRepoPg } from "./BankConnectionsRepoPg.ts"

export * from "./BankConnectionsRepoPg.ts"

/** The banking context's ports on Postgres. */
export const BankingPortsPg = Layer.mergeAll(BankConnectionsRepoPg)

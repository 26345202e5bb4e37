import { Layer } from "effect"
import { BankAccountsRepoPg } from "./BankAccountsRepoPg.ts"
import { BankConnectionsRepoPg } from "./BankConnectionsRepoPg.ts"

export * from "./BankAccountsRepoPg.ts"
export * from "./BankConnectionsRepoPg.ts"

/** The banking context's ports on Postgres. */
export const BankingPortsPg = Layer.mergeAll(BankConnectionsRepoPg, BankAccountsRepoPg)

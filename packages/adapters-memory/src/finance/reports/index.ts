import { Layer } from "effect"
import { ReportsRepoMemory } from "./ReportsRepoMemory.ts"
import { BankAccountsRepoStandIn, TransactionsRepoStandIn } from "./StandInPortsMemory.ts"

export * from "./ReportsRepoMemory.ts"

/** The reports context's ports on the in-memory store (reading the transactions and bank accounts it holds). */
export const ReportsPortsMemory = ReportsRepoMemory.pipe(
  Layer.provideMerge(Layer.mergeAll(TransactionsRepoStandIn, BankAccountsRepoStandIn))
)

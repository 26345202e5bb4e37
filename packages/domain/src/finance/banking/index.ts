export * from "./BankAccounts.ts"
export * from "./BankAccountsRepo.ts"
export * from "./BankConnections.ts"
export * from "./model.ts"

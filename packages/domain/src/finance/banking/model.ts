export * from "./BankAccount.ts"
export * from "./BankAccountErrors.ts"
export * from "./BankConnection.ts"

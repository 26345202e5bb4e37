export * from "./BankAccount.ts"
export * from "./BankAccountErrors.ts"

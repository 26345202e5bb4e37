export * from "./BankAccount.ts"

export * from "./BankAccountsApi.ts"

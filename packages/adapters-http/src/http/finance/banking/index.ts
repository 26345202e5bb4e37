export * from "./BankAccountsHttp.ts"

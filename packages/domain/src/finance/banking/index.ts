export * from "./BankConnections.ts"

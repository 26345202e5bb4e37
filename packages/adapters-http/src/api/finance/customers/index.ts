export * from "./CustomersApi.ts"

export * from "./CustomersHttp.ts"

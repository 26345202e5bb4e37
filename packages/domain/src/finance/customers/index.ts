export * from "./Customers.ts"
export * from "./model.ts"

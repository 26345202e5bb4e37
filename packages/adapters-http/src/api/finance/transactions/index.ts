export * from "./CategoriesApi.ts"
export * from "./TransactionsApi.ts"

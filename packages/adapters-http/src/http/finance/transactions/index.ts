export * from "./CategoriesHttp.ts"
export * from "./TransactionsHttp.ts"

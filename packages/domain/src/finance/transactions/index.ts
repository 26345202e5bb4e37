export * from "./Categories.ts"
export * from "./CategoriesRepo.ts"
export * from "./model.ts"
export * from "./TransactionsRepo.ts"

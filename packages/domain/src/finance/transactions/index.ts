export * from "./CategoriesRepo.ts"
export * from "./model.ts"
export * from "./TransactionsRepo.ts"

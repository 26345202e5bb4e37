/** The transactions context's shapes and pure rules: no services, so clients may import them. */
export * from "./Category.ts"
export * from "./CategoryErrors.ts"
export * from "./StandardCategories.ts"
export * from "./Transaction.ts"
export * from "./TransactionInput.ts"

export * from "./CategoriesApi.ts"

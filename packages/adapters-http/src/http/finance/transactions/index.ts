export * from "./CategoriesHttp.ts"

export * from "./model.ts"
export * from "./Search.ts"

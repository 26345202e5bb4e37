export * from "./FileStorage.ts"
export * from "./model.ts"

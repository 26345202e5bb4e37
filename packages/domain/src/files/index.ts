export * from "./Base64Stream.ts"
export * from "./FileAccess.ts"
export * from "./FileStorage.ts"
export * from "./model.ts"

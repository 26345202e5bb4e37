export * from "./Tag.ts"
export * from "./TagErrors.ts"

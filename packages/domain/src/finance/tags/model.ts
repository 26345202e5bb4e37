export * from "./Tag.ts"

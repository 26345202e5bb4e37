export * from "./files/index.ts"

export * from "./files/index.ts"
export * from "./platform/index.ts"

export * from "./chat/index.ts"

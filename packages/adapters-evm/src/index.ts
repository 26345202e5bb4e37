export * from "./crypto/index.ts"

export * from "./chat/index.ts"
export * from "./mail/index.ts"

export * from "./mail/index.ts"

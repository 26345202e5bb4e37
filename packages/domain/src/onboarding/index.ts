export * from "./TeamOpening.ts"

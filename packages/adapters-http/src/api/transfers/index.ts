export * from "./TransfersApi.ts"

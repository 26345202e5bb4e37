export * from "./TransfersHttp.ts"

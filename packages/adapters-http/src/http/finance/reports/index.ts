export * from "./ReportsHttp.ts"

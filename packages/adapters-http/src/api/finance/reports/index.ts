export * from "./ReportsApi.ts"

export * from "./MetricsHttp.ts"
export * from "./SystemHttp.ts"

export * from "./DesktopHttp.ts"
export * from "./MetricsHttp.ts"
export * from "./SystemHttp.ts"

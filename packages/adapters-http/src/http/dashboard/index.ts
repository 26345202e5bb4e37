export * from "./DashboardHttp.ts"

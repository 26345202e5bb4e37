export * from "./DashboardSignInApi.ts"
export * from "./TeamAdminApi.ts"
export * from "./TeamsApi.ts"

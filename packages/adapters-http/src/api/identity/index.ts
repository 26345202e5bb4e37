export * from "./DashboardSignInApi.ts"
export * from "./PersonalTokensApi.ts"
export * from "./TeamAdminApi.ts"
export * from "./TeamsApi.ts"

export * from "./DashboardSignInHttp.ts"
export * from "./PersonalTokensHttp.ts"
export * from "./TeamAdminHttp.ts"
export * from "./TeamsHttp.ts"

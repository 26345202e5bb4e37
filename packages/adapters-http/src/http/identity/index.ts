export * from "./TeamAdminHttp.ts"
export * from "./TeamsHttp.ts"

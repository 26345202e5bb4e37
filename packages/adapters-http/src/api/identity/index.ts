export * from "./TeamAdminApi.ts"
export * from "./TeamsApi.ts"

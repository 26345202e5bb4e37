export * from "./TeamsApi.ts"

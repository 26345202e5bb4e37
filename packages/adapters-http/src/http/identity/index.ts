export * from "./TeamsHttp.ts"
